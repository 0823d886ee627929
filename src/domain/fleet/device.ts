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
}

export const displayName = (d: Pick<Device, 'name' | 'deviceId'>): string => d.name ?? d.deviceId;
