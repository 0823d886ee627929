import test from 'ava';
import { NodeEd25519 } from '../../../src/adapters/crypto/node-ed25519.js';
import { SodiumEd25519 } from '../../../src/adapters/crypto/sodium-ed25519.js';
import { TweetnaclEd25519 } from '../../../src/adapters/crypto/tweetnacl-ed25519.js';
import { hexToBytes } from '../../../src/domain/protocol/encoding.js';
import { readJsonFixture } from '../../support/fixtures.js';

interface Wycheproof {
  testGroups: Array<{
    publicKey: { pk: string };
    tests: Array<{ tcId: number; comment: string; msg: string; sig: string; result: 'valid' | 'invalid' | 'acceptable' }>;
  }>;
}
const suite = readJsonFixture<Wycheproof>('ed25519/wycheproof_ed25519_test.json');
const cases = suite.testGroups.flatMap((g) => g.tests.map((c) => ({ ...c, pk: g.publicKey.pk })));

const sodium = SodiumEd25519.load();
if (sodium === null) throw new Error('sodium-native must load where the tests run');

for (const [name, adapter] of [
  ['node:crypto', new NodeEd25519()],
  ['tweetnacl', new TweetnaclEd25519()],
  ['libsodium', sodium],
] as const) {
  test(`${name}: every Wycheproof Ed25519 case gets its expected result`, (t) => {
    t.true(cases.length > 100);
    for (const c of cases) {
      const ok = adapter.verify(hexToBytes(c.pk)!, hexToBytes(c.msg)!, hexToBytes(c.sig)!);
      // "acceptable" does not occur for Ed25519 in this suite; treat it as must-reject (strict).
      t.is(ok, c.result === 'valid', `tcId ${c.tcId} ${c.comment}`);
    }
  });

  test(`${name}: signs what it verifies, and the seed gives the RFC 8032 public key`, (t) => {
    // RFC 8032 §7.1 TEST 1.
    const seed = hexToBytes('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60')!;
    t.is(Buffer.from(adapter.publicKey(seed)).toString('hex'), 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    const sig = adapter.sign(seed, new Uint8Array());
    t.is(
      Buffer.from(sig).toString('hex'),
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    );
    t.true(adapter.verify(adapter.publicKey(seed), new Uint8Array(), sig));
  });
}
