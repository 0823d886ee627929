import { decodeBase58, encodeBase58 } from './base58.js';

/**
 * A Solana wallet address: the base58 text of a 32-byte Ed25519 public key. Only the canonical
 * spelling is accepted (re-encoding gives the same text), so one key has exactly one address
 * and a wallet can never appear under two spellings, in a header, a token or a stored row.
 */
export function walletPublicKey(address: string): Uint8Array | null {
  if (address.length < 32 || address.length > 44) return null;
  const bytes = decodeBase58(address);
  if (bytes === null || bytes.length !== 32) return null;
  return encodeBase58(bytes) === address ? bytes : null;
}

export const isWalletAddress = (address: string): boolean => walletPublicKey(address) !== null;
