/** A named set of one wallet's devices. A device is in at most one group. */
export interface Group {
  readonly wallet: string;
  readonly groupId: string;
  /** Unique within the wallet, so a retried create cannot make twins. */
  readonly name: string;
  readonly description: string | null;
  readonly createdAtMs: number;
}

/** Groups per wallet: keeps the fleet overview, which lists them all, bounded. */
export const MAX_GROUPS_PER_WALLET = 500;

/** Device ids per assign or unassign request. */
export const MAX_DEVICES_PER_CHANGE = 1000;
