import { duringAttack, report, startTarget } from './harness.js';

/** No attack: the probes alone for `ATTACK_HOLD_S` (default 15) seconds, to read the others' figures against. */
const HOLD_S = Number(process.env.ATTACK_HOLD_S ?? 15);
const target = await startTarget();
try {
  report('no attack', await duringAttack(target, () => new Promise((resolve) => setTimeout(resolve, HOLD_S * 1000))));
} finally {
  await target.close();
}
