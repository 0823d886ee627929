import type { ExecutionContext } from 'ava';
import { aWallet } from '../../support/identity.js';
import { startIdentityApp, type IdentityApp } from '../../support/identity-app.js';

// What the identity route tests share: an app of its own per test (tests run concurrently and some
// move the clock), and wallets of their own, funded or not.
let next = 100;
export const newWallet = () => aWallet(next++);
export async function fresh(t: ExecutionContext, env: Record<string, string> = {}): Promise<IdentityApp> {
  const app = await startIdentityApp(env);
  t.teardown(() => app.close());
  return app;
}

export async function funded(app: IdentityApp, amountText = '50000') {
  const wallet = newWallet();
  await app.fund(wallet, amountText);
  return wallet;
}
