import { hasCharacters } from '../text/characters.js';
import type { HealthReport } from './health-report.js';

/** Longest device id, in characters (code points). A device id holds no U+0000; a proof whose robot_id is empty or longer names no device. */
export const DEVICE_ID_MAX = 128;

export const isDeviceId = (id: string): boolean => hasCharacters(id, 1, DEVICE_ID_MAX) && !id.includes('\u0000');

/**
 * A device of one wallet: a `robot_id` seen in the wallet's proofs or in a health report.
 * Its activity figures are kept by the stores in the same transaction as the proof or report
 * that changes them, so they never disagree with what is stored.
 */
export interface Device {
  readonly wallet: string;
  readonly deviceId: string;
  /** Set by the owner; null until renamed (the id then stands for it). */
  readonly name: string | null;
  readonly groupId: string | null;
  /** Registry time of the first proof or report. */
  readonly firstSeenMs: number;
  /** Registry time of the latest proof or report: the base of the derived status. */
  readonly lastSeenMs: number;
  /** Registry time (received_at) of the latest proof, null when only reports were seen. */
  readonly lastProofAtMs: number | null;
  readonly proofCount: number;
  readonly lastHealth: HealthReport | null;
  /** When the owner hid it, or null: a hidden device is left out of lists and counts until its next proof or report. */
  readonly hiddenAtMs: number | null;
  /** The owner's order of the fleet list (smallest first), or null: after every ordered device, by id. */
  readonly sortOrder: number | null;
  readonly description: string | null;
  /** What kind of device it is, in the owner's words (e.g. "arm", "drone"). */
  readonly deviceType: string | null;
}

/** The order stores give a device never placed: after every order an owner can set. */
export const UNORDERED = 2_147_483_647;
/** Orders an owner may set, and how many devices one reorder may place. */
export const SORT_ORDER_MAX = 1_000_000;
export const MAX_DEVICES_PER_ORDER = 1000;
/** Longest device type, in characters after trimming. */
export const DEVICE_TYPE_MAX = 64;

export const displayName = (d: Pick<Device, 'name' | 'deviceId'>): string => d.name ?? d.deviceId;
