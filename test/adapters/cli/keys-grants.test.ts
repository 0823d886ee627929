import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import test from 'ava';
import { createKeysCommand } from '../../../src/adapters/cli/keys.js';
import { createLoginCommand } from '../../../src/adapters/cli/login.js';
import type { Command } from '../../../src/adapters/cli/command.js';
import { startDashboardRegistry, type DashboardRegistry } from '../../support/dashboard-registry.js';
import { aWallet, type TestWallet } from '../../support/identity.js';
import { tempDir } from './harness.js';

// keys create with a grant, and disable, enable and rename, against a running service.
let registry: DashboardRegistry;
test.before(async () => {
  registry = await startDashboardRegistry();
});
test.after.always(async () => registry?.close());

async function run(command: Command, args: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await command
    .run(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, stdin: Readable.from([]), cwd })
    .catch((err: Error) => {
      stderr += err.message;
      return 2;
    });
  return { code, stdout, stderr };
}

interface Listed {
  key_id: string;
  name: string;
  scopes: string[];
  robot_ids: string[] | null;
  expires_at: string | null;
  enabled: boolean;
  status: string;
}

/** A funded wallet signed in with `login`, its `keys` command, and the service's own view of its keys. */
async function signedIn(t: Parameters<typeof tempDir>[0], n: number) {
  const dir = tempDir(t);
  const wallet: TestWallet = aWallet(n);
  writeFileSync(join(dir, 'wallet.json'), JSON.stringify([...wallet.secretKey]));
  await registry.fund(wallet.address, '50000');
  const env = { PROOF_REGISTRY_URL: registry.url, PROOF_REGISTRY_SESSION: join(dir, 'session.json') };
  const login = await run(createLoginCommand(env), ['--keypair', 'wallet.json'], dir);
  t.is(login.code, 0, login.stderr);
  const token = await registry.signIn(wallet);
  const keys = createKeysCommand(env);
  return {
    wallet,
    keys: (...args: string[]) => run(keys, args, dir),
    listed: async (): Promise<Listed[]> =>
      (await registry.call('GET', '/v1/keys?limit=200', { credential: token, wallet: wallet.address })).body.items as Listed[],
    withKey: async (key: string) => (await registry.call('GET', '/v1/proofs', { credential: key, wallet: wallet.address })).status,
  };
}

test.serial('create --preset robot --robot r-1 makes a key holding the robot scopes, bound to r-1; list shows the preset and the binding', async (t) => {
  const w = await signedIn(t, 71);
  const created = await w.keys('create', 'arm r-1', '--preset', 'robot', '--robot', 'r-1', '--json');
  t.is(created.code, 0, created.stderr);
  const body = JSON.parse(created.stdout) as Listed & { key: string };
  t.deepEqual([body.scopes, body.robot_ids, body.expires_at, body.status], [['proofs:write', 'health:write'], ['r-1'], null, 'active']);
  const [onService] = await w.listed();
  t.deepEqual([onService!.key_id, onService!.scopes, onService!.robot_ids], [body.key_id, ['proofs:write', 'health:write'], ['r-1']]);
  t.is(await w.withKey(body.key), 403, 'a robot key reads no proofs');

  const text = await w.keys('create', 'auditors', '--scope', 'proofs:read,verify', '--scope', 'fleet:read', '--robot', 'r-2,r-3', '--robot', 'r-2');
  t.is(text.code, 0, text.stderr);
  t.regex(
    text.stdout,
    /^Created API key key_\S+ \("auditors"\): active; scopes proofs:read,verify,fleet:read; robots r-2,r-3; expires never\. The key, shown this once:\n\n {2}pr_live_\S+\n/,
  );
  t.regex((await w.keys('create', 'everything', '--preset', 'full')).stdout, /: active; scopes full; robots any; expires never\./);
  t.deepEqual((await w.listed())[2]!.scopes.length, 8);

  const listed = await w.keys('list');
  t.is(listed.code, 0, listed.stderr);
  const lines = listed.stdout.trim().split('\n');
  t.regex(lines[0]!, /^KEY ID\s+NAME\s+PREFIX\s+SCOPES\s+ROBOTS\s+EXPIRES\s+STATUS\s+CREATED\s+LAST USED\s+REQUESTS\s+ERRORS$/);
  t.regex(lines[1]!, new RegExp(`^${body.key_id}\\s+arm r-1\\s+pr_live_\\S+\\s+robot\\s+r-1\\s+never\\s+active\\s`));
  t.regex(lines[2]!, /auditors\s+pr_live_\S+\s+proofs:read,verify,fleet:read\s+r-2,r-3\s+never\s+active\s/);
  t.regex(lines[3]!, /everything\s+pr_live_\S+\s+full\s+any\s+never\s+active\s/);
  const json = JSON.parse((await w.keys('list', '--json')).stdout) as Array<Listed & { request_count: number }>;
  t.deepEqual(
    json.map((k) => k.scopes.length),
    [2, 3, 8],
  );
  t.deepEqual(json[0]!.request_count, 1);
});

test.serial('--expires takes a duration from now or an RFC 3339 time; a time in the past gets the service’s reason', async (t) => {
  const w = await signedIn(t, 72);
  const before = Date.now();
  const day = await w.keys('create', 'for a day', '--expires', '1d', '--json');
  t.is(day.code, 0, day.stderr);
  const expires = Date.parse((JSON.parse(day.stdout) as Listed).expires_at!);
  t.true(expires >= before + 86_400_000 - 1000 && expires <= Date.now() + 86_400_000 + 1000, `expires_at ${new Date(expires).toISOString()}`);
  t.is((await w.keys('create', 'short', '--expires', '90m', '--json')).code, 0);
  const fixed = await w.keys('create', 'fixed', '--expires', '2099-01-01T00:00:00+01:00', '--json');
  t.is((JSON.parse(fixed.stdout) as Listed).expires_at, '2098-12-31T23:00:00.000Z');
  t.regex((await w.keys('list')).stdout, /for a day\s+\S+\s+full\s+any\s+\d{4}-\d\d-\d\dT\S+\s+active/);

  const past = await w.keys('create', 'late', '--expires', '2001-01-01T00:00:00Z');
  t.is(past.code, 2);
  t.is(past.stderr, 'POST /v1/keys: 422 expires_at must be in the future');
  const bad = await w.keys('create', 'late', '--expires', 'tomorrow');
  t.is(bad.code, 2);
  t.regex(bad.stderr, /--expires must be an RFC 3339 time .* or a duration from now \(e\.g\. 90m, 12h, 30d\), got "tomorrow"/);
  t.is((await w.listed()).length, 3);
});

test.serial('an unknown scope or preset, or --preset with --scope, is refused before any request and makes no key', async (t) => {
  const w = await signedIn(t, 73);
  const scope = await w.keys('create', 'typo', '--scope', 'proofs:write,proof:read');
  t.is(scope.code, 2);
  t.is(
    scope.stderr,
    'unknown scope "proof:read"; the scopes are proofs:write, proofs:read, verify, fleet:read, fleet:write, health:write, stats:read, events:read (presets: robot, auditor, full)',
  );
  const preset = await w.keys('create', 'typo', '--preset', 'robots');
  t.regex(preset.stderr, /^unknown preset "robots"; the presets are robot, auditor, full/);
  t.regex((await w.keys('create', 'both', '--preset', 'robot', '--scope', 'verify')).stderr, /--preset and --scope both say what the key may do: give one/);
  t.regex((await w.keys('create', 'blank', '--robot', ',')).stderr, /--robot needs at least one robot id/);
  t.regex((await w.keys('list', '--scope', 'verify')).stderr, /--scope is for keys create/);
  t.deepEqual(await w.listed(), []);
  // Refused before signing in: no session is needed to be told.
  const none = await run(createKeysCommand({ PROOF_REGISTRY_SESSION: '/nonexistent/session.json' }), ['create', 'x', '--scope', 'nope'], tempDir(t));
  t.regex(none.stderr, /^unknown scope "nope"/);
});

test.serial('disable refuses the key (401) until enable; rename shows in keys list', async (t) => {
  const w = await signedIn(t, 74);
  const { key, key_id: keyId } = JSON.parse((await w.keys('create', 'line robots', '--json')).stdout) as { key: string; key_id: string };
  t.is(await w.withKey(key), 200);

  const disabled = await w.keys('disable', keyId);
  t.is(disabled.code, 0, disabled.stderr);
  t.is(disabled.stdout, `Disabled API key ${keyId} ("line robots"): disabled; scopes full; robots any; expires never.\n`);
  t.is(await w.withKey(key), 401);
  t.regex((await w.keys('list')).stdout, /line robots .* disabled /);
  const json = JSON.parse((await w.keys('disable', keyId, '--json')).stdout) as Listed & { disabled_at: string };
  t.deepEqual([json.enabled, json.status, typeof json.disabled_at], [false, 'disabled', 'string']);

  const enabled = await w.keys('enable', keyId);
  t.is(enabled.stdout, `Enabled API key ${keyId} ("line robots"): active; scopes full; robots any; expires never.\n`);
  t.is(await w.withKey(key), 200);

  const renamed = await w.keys('rename', keyId, 'north line');
  t.is(renamed.stdout, `Renamed API key ${keyId} ("north line"): active; scopes full; robots any; expires never.\n`);
  const lines = (await w.keys('list')).stdout.trim().split('\n');
  t.regex(lines[1]!, new RegExp(`^${keyId}\\s+north line\\s`));
  t.deepEqual(
    (await w.listed()).map((k) => k.name),
    ['north line'],
  );

  t.regex((await w.keys('rename', keyId, 'north', 'line')).stderr, /keys rename takes <key_id> <new name> \(quote a name that holds spaces\)/);
  t.regex((await w.keys('rename', keyId, ' ')).stderr, /^PATCH \/v1\/keys\/\S+: 422 /);
  const missing = await w.keys('disable', 'key_nonexistent');
  t.is(missing.code, 2);
  t.regex(missing.stderr, /404 API key key_nonexistent not found/);
  t.regex((await w.keys('enable')).stderr, /keys enable takes <key_id>/);
});
