import { api } from './api.js';
import type { Session } from './session.js';
import type { Signer } from './wallets.js';

interface Challenge {
  challenge: string;
}
interface Token {
  access_token: string;
  expires_in: number;
  wallet_address: string;
}

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/**
 * Sign-In With Solana: ask the service for a challenge for the wallet's address, have the
 * wallet sign its exact UTF-8 bytes, and exchange the signature for a dashboard token.
 */
export async function signIn(signer: Signer): Promise<Session> {
  let challenge = '';
  const { address, signature } = await signer.connectAndSign(async (wallet) => {
    challenge = (await api<Challenge>('POST', '/v1/auth/wallet/connect', { wallet_address: wallet })).challenge;
    return new TextEncoder().encode(challenge);
  });
  const token = await api<Token>('POST', '/v1/auth/wallet/verify', { wallet_address: address, challenge, signature: b64(signature) });
  return { token: token.access_token, wallet: token.wallet_address, expiresAtMs: Date.now() + token.expires_in * 1000, walletName: signer.name };
}
