/** The part of sodium-native (libsodium bindings) the Ed25519 adapter uses. */
declare module 'sodium-native' {
  export const crypto_sign_PUBLICKEYBYTES: number;
  export const crypto_sign_SECRETKEYBYTES: number;
  export const crypto_sign_BYTES: number;
  export function crypto_sign_seed_keypair(publicKey: Uint8Array, secretKey: Uint8Array, seed: Uint8Array): void;
  export function crypto_sign_detached(signature: Uint8Array, message: Uint8Array, secretKey: Uint8Array): void;
  export function crypto_sign_verify_detached(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
}
