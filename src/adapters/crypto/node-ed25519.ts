import { createPrivateKey, createPublicKey, sign as nodeSign, verify as nodeVerify, type KeyObject } from 'node:crypto';
import type { Signer, SignatureVerifier } from '../../domain/protocol/crypto.js';
import { passesStrictEncoding } from '../../domain/protocol/ed25519-rules.js';

const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * Ed25519 through node:crypto (OpenSSL): the fast path. Importing a raw key into a KeyObject
 * costs about as much as a verification, and a fleet reuses few keys, so KeyObjects are kept
 * in a bounded cache keyed by the raw key bytes.
 */
export class NodeEd25519 implements SignatureVerifier, Signer {
  private readonly publicKeys = new Map<string, KeyObject | null>();
  private readonly privateKeys = new Map<string, KeyObject>();

  constructor(private readonly cacheSize = 10_000) {}

  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
    if (!passesStrictEncoding(publicKey, signature)) return false;
    const key = this.publicKeyObject(publicKey);
    if (key === null) return false;
    try {
      return nodeVerify(null, message, key, signature);
    } catch {
      return false;
    }
  }

  publicKey(seed: Uint8Array): Uint8Array {
    const der = createPublicKey(this.privateKeyObject(seed)).export({ format: 'der', type: 'spki' });
    return new Uint8Array(der.subarray(der.length - 32));
  }

  sign(seed: Uint8Array, message: Uint8Array): Uint8Array {
    return new Uint8Array(nodeSign(null, message, this.privateKeyObject(seed)));
  }

  private publicKeyObject(raw: Uint8Array): KeyObject | null {
    const id = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64');
    const cached = this.publicKeys.get(id);
    if (cached !== undefined) return cached;
    let key: KeyObject | null;
    try {
      key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' });
    } catch {
      key = null; // not a point on the curve
    }
    remember(this.publicKeys, id, key, this.cacheSize);
    return key;
  }

  private privateKeyObject(seed: Uint8Array): KeyObject {
    if (seed.length !== 32) throw new RangeError('an Ed25519 seed is 32 bytes');
    const id = Buffer.from(seed).toString('base64');
    let key = this.privateKeys.get(id);
    if (!key) {
      key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
      remember(this.privateKeys, id, key, 64);
    }
    return key;
  }
}

/** Insertion-ordered map as a cache: evicts the oldest entry when full. */
function remember<V>(map: Map<string, V>, id: string, value: V, max: number): void {
  if (map.size >= max) map.delete(map.keys().next().value as string);
  map.set(id, value);
}
