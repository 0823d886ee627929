/** A named set of one wallet's devices. A device is in at most one group. */
export interface Group {
  readonly wallet: string;
  readonly groupId: string;
  /** Unique within the wallet, so a retried create cannot make twins. */
  readonly name: string;
  readonly description: string | null;
  readonly createdAtMs: number;
  /** The colour the dashboard shows it in: "#rrggbb", lower case, or null. */
  readonly color: string | null;
}

/** "#rgb" or "#rrggbb", any case, to "#rrggbb" in lower case; null for anything else. */
export function normalizeColor(raw: string): string | null {
  const m = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.exec(raw.trim());
  if (!m) return null;
  const hex = m[1]!.toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

/** Groups per wallet: keeps the fleet overview, which lists them all, bounded. */
export const MAX_GROUPS_PER_WALLET = 500;

/** Device ids per assign or unassign request. */
export const MAX_DEVICES_PER_CHANGE = 1000;
