import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { duringAttack, report, startTarget } from './harness.js';

/**
 * Finding 5: one key asks POST /v1/access/check about `ATTACK_OWNERS` (default 2,000)
 * different owners as fast as it can, 16 at a time, under the default rate limits
 * (`ATTACK_NO_RATE_LIMIT=1` lifts them, leaving the distinct-owner limit alone in the way).
 */
const OWNERS = Number(process.env.ATTACK_OWNERS ?? 2_000);
// Made before the attack starts: a key pair takes the attacking script about 13 ms of CPU, and
// the probes share its event loop, so making them during the attack would hold the probes' own
// answers back and the figures would show the attacker's load, not the server's. The server
// checks an owner's form only (32 bytes in base58), so random bytes are owners as good as keys.
const owners = Array.from({ length: OWNERS }, () => bs58.encode(nacl.randomBytes(32)));
const target = await startTarget(process.env.ATTACK_NO_RATE_LIMIT === '1' ? { RATE_LIMIT_PER_MIN: '1000000', WALLET_RATE_LIMIT_PER_MIN: '1000000' } : {});
const statuses = new Map<number, number>();
let cpuS = 0;
try {
  const figures = await duringAttack(target, async () => {
    const cpuBefore = target.server.cpuSeconds() ?? NaN;
    let next = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < OWNERS) {
          const owner = owners[next++]!;
          const res = await fetch(`${target.server.url}/v1/access/check`, {
            method: 'POST',
            headers: { authorization: `Bearer ${target.attacker.key}`, 'x-wallet-address': target.attacker.wallet, 'content-type': 'application/json' },
            body: JSON.stringify({ owner, mint: 'LocaLedgerAccessToken1111111111111111111111', minimum: 1 }),
          });
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }),
    );
    cpuS = (target.server.cpuSeconds() ?? NaN) - cpuBefore;
  });
  // The server's CPU time (all its threads) per attacking request: what each costs it, whatever else the machine runs.
  report('access-check flood', figures, {
    answers: JSON.stringify(Object.fromEntries(statuses)),
    'server CPU per request': `${((cpuS * 1000) / OWNERS).toFixed(2)} ms`,
  });
} finally {
  await target.close();
}
