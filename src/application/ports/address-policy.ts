/**
 * Where a webhook may point. At creation only the host as written can be judged (an address,
 * or a name such as `localhost`); every delivery judges the addresses the name resolves to,
 * and connects only to an address it judged.
 */
export interface AddressPolicy {
  /** Why a URL with this host is refused (`a loopback address`), or null. */
  hostProblem(hostname: string): string | null;
}
