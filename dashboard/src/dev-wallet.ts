import bs58 from 'bs58';
import type { Signer } from './wallets.js';

/**
 * The development wallet, offered only when the service runs on its local ledger: an Ed25519
 * key made in this page (WebCrypto) and kept in sessionStorage, so a newcomer can sign in
 * without installing a wallet. It holds nothing of value and never meets a real chain. A
 * Solana keypair file (the CLI's `wallet.json`) can take its place, kept the same way.
 */
const KEY = 'proof-registry.dev-wallet';

interface Stored {
  readonly pkcs8: string;
  readonly publicKey: string;
}

const b64 = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
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

/** PKCS #8 of an Ed25519 private key (RFC 8410): these 16 bytes, then its 32-byte seed. */
const PKCS8_ED25519 = [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];

/**
 * Makes a Solana keypair file the development wallet of this tab, in place of the one made
 * here: `solana-keygen`'s format, a JSON array of the 64-byte secret key (seed, then public
 * key). Returns its address; throws a sentence when the text is not such a key.
 */
export async function importDevWallet(text: string): Promise<string> {
  let bytes: unknown;
  try {
    bytes = JSON.parse(text);
  } catch {
    throw new Error('the file is not JSON; a Solana keypair file is a JSON array of 64 numbers');
  }
  if (!Array.isArray(bytes) || bytes.length !== 64 || !bytes.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    throw new Error('a Solana keypair file is a JSON array of 64 numbers from 0 to 255');
  }
  const secret = Uint8Array.from(bytes as number[]);
  const pkcs8 = Uint8Array.from([...PKCS8_ED25519, ...secret.subarray(0, 32)]);
  const publicKey = secret.slice(32);
  // Its two halves must be one key: sign with the first, check with the second.
  const probe = new TextEncoder().encode('proof-registry development wallet');
  const agree = await (async () => {
    const privateKey = await crypto.subtle.importKey('pkcs8', pkcs8, { name: 'Ed25519' }, false, ['sign']);
    const verifier = await crypto.subtle.importKey('raw', publicKey, { name: 'Ed25519' }, false, ['verify']);
    return crypto.subtle.verify({ name: 'Ed25519' }, verifier, await crypto.subtle.sign({ name: 'Ed25519' }, privateKey, probe), probe);
  })().catch(() => false);
  if (!agree) throw new Error('its last 32 numbers are not the public key of its first 32');
  sessionStorage.setItem(KEY, JSON.stringify({ pkcs8: b64(pkcs8), publicKey: b64(publicKey) } satisfies Stored));
  return bs58.encode(publicKey);
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
