import { encodeBase64 } from '../../domain/protocol/encoding.js';
import type { RandomSource } from '../ports/identity-crypto.js';

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes (the HMAC-SHA256 key). */
export const newSecret = (random: RandomSource): string => `whsec_${encodeBase64(random.bytes(32))}`;
