import bs58 from 'bs58';
import type { Signer } from './wallets.js';

/**
 * The development wallet, offered only when the service runs on its local ledger: an Ed25519
 * key made in this page (WebCrypto) and kept in sessionStorage, so a newcomer can sign in
 * without installing a wallet. It holds nothing of value and never meets a real chain.
 */
const KEY = 'proof-registry.dev-wallet';

interface Stored {
  readonly pkcs8: string;
  readonly publicKey: string;
}

const b64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const unb64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

async function keyPair(): Promise<{ privateKey: CryptoKey; address: string }> {
  const raw = sessionStorage.getItem(KEY);
  if (raw !== null) {
    const s = JSON.parse(raw) as Stored;
    const privateKey = await crypto.subtle.importKey('pkcs8', unb64(s.pkcs8), { name: 'Ed25519' }, false, ['sign']);
    return { privateKey, address: bs58.encode(unb64(s.publicKey)) };
  }
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', pair.privateKey);
  const publicKey = await crypto.subtle.exportKey('raw', pair.publicKey);
  sessionStorage.setItem(KEY, JSON.stringify({ pkcs8: b64(pkcs8), publicKey: b64(publicKey) } satisfies Stored));
  return { privateKey: pair.privateKey, address: bs58.encode(new Uint8Array(publicKey)) };
}

/** The development wallet's address, creating its key on first use. */
export async function devWalletAddress(): Promise<string> {
  return (await keyPair()).address;
}

export const devWalletSupported = (): boolean => typeof crypto !== 'undefined' && typeof crypto.subtle?.generateKey === 'function';

export const devWallet: Signer = {
  name: 'Development wallet',
  icon: null,
  async connectAndSign(getMessage) {
    const { privateKey, address } = await keyPair();
    const message = await getMessage(address);
    const signature = new Uint8Array(await crypto.subtle.sign({ name: 'Ed25519' }, privateKey, new Uint8Array(message)));
    return { address, signature };
  },
};
