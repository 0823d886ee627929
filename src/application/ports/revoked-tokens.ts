/** Dashboard tokens signed out before they expire, by `jti`: shared by every instance. */
export interface RevokedTokens {
  /** Records the token as revoked until `expiresAtMs`; revoking it again changes nothing. */
  revoke(jti: string, expiresAtMs: number): Promise<void>;
  isRevoked(jti: string): Promise<boolean>;
  /** Forgets revocations of tokens expired before `beforeMs` (they are refused as expired anyway). */
  deleteExpired(beforeMs: number): Promise<number>;
}
