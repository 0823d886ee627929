import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { duringAttack, report, startTarget } from './harness.js';

/**
 * Finding 5: one key asks POST /v1/access/check about `ATTACK_OWNERS` (default 2,000)
 * different owners as fast as it can, 16 at a time, under the default rate limits
 * (`ATTACK_NO_RATE_LIMIT=1` lifts them, leaving the distinct-owner limit alone in the way).
 */
const OWNERS = Number(process.env.ATTACK_OWNERS ?? 2_000);
const target = await startTarget(process.env.ATTACK_NO_RATE_LIMIT === '1' ? { RATE_LIMIT_PER_MIN: '1000000', WALLET_RATE_LIMIT_PER_MIN: '1000000' } : {});
const statuses = new Map<number, number>();
try {
  const figures = await duringAttack(target, async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < OWNERS) {
          next++;
          const res = await fetch(`${target.server.url}/v1/access/check`, {
            method: 'POST',
            headers: { authorization: `Bearer ${target.attacker.key}`, 'x-wallet-address': target.attacker.wallet, 'content-type': 'application/json' },
            body: JSON.stringify({ owner: bs58.encode(nacl.sign.keyPair().publicKey), mint: 'LocaLedgerAccessToken1111111111111111111111', minimum: 1 }),
          });
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }),
    );
  });
  report('access-check flood', figures, { answers: JSON.stringify(Object.fromEntries(statuses)) });
} finally {
  await target.close();
}
