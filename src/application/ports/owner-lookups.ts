/**
 * How many different owners one wallet may look up per minute in access checks. Each new owner
 * is a call to the balance source (an RPC call on Solana) and an entry in a cache, so without a
 * limit one key could sweep the balance source and the cache at its full request rate. Asking
 * again about an owner already asked about this minute is free.
 */
export interface OwnerLookups {
  readonly perMinute: number;
  /** Null when the lookup may go ahead; otherwise the seconds until the window turns. */
  admit(wallet: string, owner: string): Promise<number | null>;
}
