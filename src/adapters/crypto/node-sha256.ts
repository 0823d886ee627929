import { createHash } from 'node:crypto';
import type { Sha256 } from '../../domain/log/sha256.js';

/** SHA-256 through node:crypto (OpenSSL), for the transparency log. */
export class NodeSha256 implements Sha256 {
  digest(data: Uint8Array): Uint8Array {
    return new Uint8Array(createHash('sha256').update(data).digest());
  }
}
