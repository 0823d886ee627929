import test from 'ava';
import type { CheckpointSigner } from '../../src/application/ports/checkpoint-signer.js';
import { NodeEd25519 } from '../../src/adapters/crypto/node-ed25519.js';
import { isKeyName } from '../../src/domain/log/verifier-key.js';
import type { DeclareTest } from '../support/databases.js';

/** The CheckpointSigner contract: signatures an RFC 8032 verifier accepts under the signer's public key. */
export function checkpointSignerContract(name: string, make: () => Promise<CheckpointSigner>, testFn: DeclareTest = test): void {
  testFn(`${name}: signs with the key it shows, under a usable note key name`, async (t) => {
    const signer = await make();
    const ed = new NodeEd25519();
    const message = new TextEncoder().encode('registry.example/proof-registry\n1\nAAAA\n');
    const signature = await signer.sign(message);
    t.is(signer.publicKey.length, 32);
    t.is(signature.length, 64);
    t.true(isKeyName(signer.keyName));
    t.true(ed.verify(signer.publicKey, message, signature));
    t.false(ed.verify(signer.publicKey, new TextEncoder().encode('registry.example/proof-registry\n2\nAAAA\n'), signature));
  });
}
