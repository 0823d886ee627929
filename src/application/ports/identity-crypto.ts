/** Unpredictable bytes from the OS CSPRNG: API key secrets, nonces, key ids. */
export interface RandomSource {
  bytes(length: number): Uint8Array;
}

/** SHA-256, for storing API keys (256-bit random secrets need no salt or stretching). */
export interface SecretHasher {
  sha256(data: Uint8Array): Uint8Array;
}
