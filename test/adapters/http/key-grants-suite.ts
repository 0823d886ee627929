import test from 'ava';
import { SCOPES, type Scope } from '../../../src/domain/identity/key-grant.js';
import { startDashboardRegistry, type DashboardRegistry } from '../../support/dashboard-registry.js';
import { aWallet, ManualClock } from '../../support/identity.js';
import { anEnvelope } from '../../support/mothers.js';

/**
 * The scope each operation that takes an API key needs, written out here so that a change to
 * any route's declaration is a change to this table. `any`: every key of the wallet.
 */
export const EXPECTED_SCOPES: Readonly<Record<string, Scope | 'any'>> = {
  submitProof: 'proofs:write',
  listProofs: 'proofs:read',
  getProof: 'proofs:read',
  getProofBundle: 'proofs:read',
  searchProofs: 'proofs:read',
  exportProofs: 'proofs:read',
  verifyProof: 'verify',
  verifyBatch: 'verify',
  scoreProof: 'verify',
  reportDeviceHealth: 'health:write',
  listEvents: 'events:read',
  streamEvents: 'events:read',
  checkAccess: 'any',
  actoSubmitProof: 'proofs:write',
  actoListProofs: 'proofs:read',
  actoGetProof: 'proofs:read',
  actoSearchProofs: 'proofs:read',
  actoVerify: 'verify',
  actoVerifyBatch: 'verify',
  actoScore: 'verify',
  actoFleetOverview: 'fleet:read',
  actoGetDevice: 'fleet:read',
  actoGetHealth: 'fleet:read',
  actoListGroups: 'fleet:read',
  actoRenameDevice: 'fleet:write',
  actoDeleteDevice: 'fleet:write',
  actoReorderDevices: 'fleet:write',
  actoCreateGroup: 'fleet:write',
  actoAssignDevices: 'fleet:write',
  actoUnassignDevices: 'fleet:write',
  actoDeleteGroup: 'fleet:write',
  actoReportHealth: 'health:write',
  actoWalletStats: 'stats:read',
  actoCheckAccess: 'any',
};

interface KeyOperation {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly scope: Scope | null;
}

/** Every operation of both OpenAPI documents that takes an API key, with the scope it declares. */
async function keyOperations(registry: DashboardRegistry, wallet: string): Promise<KeyOperation[]> {
  const out: KeyOperation[] = [];
  for (const doc of ['/openapi.json', '/acto/openapi.json']) {
    const { body } = await registry.call('GET', doc);
    const prefix = doc === '/openapi.json' ? '' : '/acto';
    for (const [path, ops] of Object.entries(
      body.paths as Record<string, Record<string, { operationId: string; security: Array<Record<string, string[]>>; 'x-required-scope'?: string | null }>>,
    )) {
      for (const [method, op] of Object.entries(ops)) {
        const key = op.security.find((s) => 'apiKey' in s);
        if (!key) continue;
        const scope = (op['x-required-scope'] ?? null) as Scope | null;
        const concrete = (prefix && !path.startsWith('/acto') ? prefix : '') + path.replace('{addr}', wallet).replace(/\{[^}]+\}/g, 'robot-a');
        out.push({ operationId: op.operationId, method: method.toUpperCase(), path: concrete, scope });
        if (JSON.stringify(key.apiKey) !== JSON.stringify(scope === null ? [] : [scope]))
          throw new Error(`${op.operationId}: security lists ${JSON.stringify(key.apiKey)}, x-required-scope ${scope}`);
      }
    }
  }
  return out;
}

/** One request with the key: the status and code, the body left unread past its head (an event stream never ends). */
async function callWith(registry: DashboardRegistry, key: string, wallet: string, op: KeyOperation): Promise<{ status: number; code: string | undefined }> {
  const abort = new AbortController();
  const res = await fetch(registry.url + op.path, {
    method: op.method,
    headers: {
      authorization: `Bearer ${key}`,
      'x-wallet-address': wallet,
      ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { 'content-type': 'application/json' }),
    },
    ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { body: '{}' }),
    signal: abort.signal,
  });
  let code: string | undefined;
  if ((res.headers.get('content-type') ?? '').includes('application/json')) code = ((await res.json()) as { code?: string }).code;
  abort.abort();
  return { status: res.status, code };
}

/**
 * Least-privilege keys against the whole registry on one database: every operation that takes
 * a key, with a key holding each single scope; robot-bound keys; disable, enable and expiry.
 */
export function keyGrantsSuite(label: string, databaseUrl: () => Promise<string>): void {
  const owner = aWallet(31);
  const clock = new ManualClock(Date.parse('2026-12-01T12:00:00Z'));
  let registry: DashboardRegistry;
  let token: string;
  const as = (key: string) => ({ credential: key, wallet: owner.address });
  const newKey = async (body: Record<string, unknown>) => {
    const made = await registry.call('POST', '/v1/keys', { credential: token, wallet: owner.address, body: { name: 'k', ...body } });
    if (made.status !== 201) throw new Error(`POST /v1/keys ${made.status} ${JSON.stringify(made.body)}`);
    return made.body as { key: string; key_id: string; scopes: string[]; robot_ids: string[] | null; status: string };
  };

  test.before(async () => {
    registry = await startDashboardRegistry({ databaseUrl: await databaseUrl(), clock, env: { JWT_TTL_S: '86400' } });
    await registry.fund(owner.address, '50000');
    token = await registry.signIn(owner);
  });
  test.after.always(async () => registry?.close());

  test.serial(`${label}: every operation that takes a key, with a key of each single scope: allowed or 403 insufficient_scope as declared`, async (t) => {
    const ops = await keyOperations(registry, owner.address);
    t.deepEqual(Object.fromEntries(ops.map((o) => [o.operationId, o.scope ?? 'any'])), EXPECTED_SCOPES);
    const keys = new Map<Scope, string>();
    for (const scope of SCOPES) keys.set(scope, (await newKey({ name: `only ${scope}`, scopes: [scope] })).key);
    for (const op of ops) {
      for (const [scope, key] of keys) {
        const { status, code } = await callWith(registry, key, owner.address, op);
        const allowed = op.scope === null || op.scope === scope;
        if (allowed) t.true(status !== 401 && code !== 'insufficient_scope', `${op.operationId} with ${scope}: ${status} ${code}`);
        else t.deepEqual([status, code], [403, 'insufficient_scope'], `${op.operationId} with ${scope}`);
      }
    }
    const refused = await registry.call('GET', '/v1/proofs', as(keys.get('proofs:write')!));
    t.is(refused.body.detail, 'this API key lacks the scope proofs:read, which this route needs');
    t.is(refused.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="proofs:read"');
  });

  test.serial(
    `${label}: a robot's key submits and reports only for its robots; another robot's proof or report is refused and nothing is stored`,
    async (t) => {
      const robot = await newKey({ name: 'arm', scopes: ['proofs:write', 'health:write'], robot_ids: ['arm-1'] });
      t.deepEqual([robot.scopes, robot.robot_ids], [['proofs:write', 'health:write'], ['arm-1']]);
      const other = anEnvelope({ robotId: 'arm-2', taskId: 'pick', seed: 3 });
      for (const path of ['/v1/proofs', '/acto/v1/proofs']) {
        const r = await registry.call('POST', path, { ...as(robot.key), body: { envelope: other } });
        t.deepEqual([r.status, r.body.code, r.body.robot_id], [403, 'robot_not_allowed', 'arm-2'], path);
        t.regex(r.body.detail, /not for robot "arm-2"/);
      }
      const unnamed = await registry.call('POST', '/v1/proofs', { ...as(robot.key), body: { envelope: anEnvelope({ taskId: 'no robot', seed: 4 }) } });
      t.deepEqual([unnamed.status, unnamed.body.code, unnamed.body.robot_id], [403, 'robot_not_allowed', null]);
      for (const path of ['/v1/fleet/devices/arm-2/health', '/acto/v1/fleet/devices/arm-2/health']) {
        const r = await registry.call('POST', path, { ...as(robot.key), body: { cpu_percent: 10 } });
        t.deepEqual([r.status, r.body.code], [403, 'robot_not_allowed'], path);
      }
      const stored = await registry.call('GET', '/v1/proofs', { credential: token, wallet: owner.address });
      t.deepEqual(stored.body.items, [], 'no refused proof was stored');
      t.is(
        (await registry.call('GET', '/v1/fleet/devices/arm-2', { credential: token, wallet: owner.address })).status,
        404,
        'no device was made for the refused robot',
      );

      const own = await registry.call('POST', '/v1/proofs', {
        ...as(robot.key),
        body: { envelope: anEnvelope({ robotId: 'arm-1', taskId: 'pick', seed: 5 }) },
      });
      t.is(own.status, 200);
      t.is((await registry.call('POST', '/v1/fleet/devices/arm-1/health', { ...as(robot.key), body: { cpu_percent: 12 } })).status, 201);
      t.deepEqual(
        (await registry.call('GET', '/v1/proofs', { credential: token, wallet: owner.address })).body.items.map((p: { proof_id: string }) => p.proof_id),
        [own.body.proof_id],
      );
    },
  );

  test.serial(`${label}: a disabled key is 401 saying so and works again once enabled; an expired key is 401 saying when`, async (t) => {
    const key = await newKey({ name: 'reader', scopes: ['proofs:read'], expires_at: new Date(clock.nowMs() + 3600_000).toISOString() });
    t.is((await registry.call('GET', '/v1/proofs', as(key.key))).status, 200);
    const off = await registry.call('PATCH', `/v1/keys/${key.key_id}`, { credential: token, wallet: owner.address, body: { enabled: false } });
    t.like(off.body, { enabled: false, status: 'disabled' });
    const refused = await registry.call('GET', '/v1/proofs', as(key.key));
    t.deepEqual([refused.status, refused.body.code], [401, 'disabled_api_key']);
    t.regex(refused.body.detail, /disabled/);
    t.like(
      (await registry.call('PATCH', `/v1/keys/${key.key_id}`, { credential: token, wallet: owner.address, body: { enabled: true, name: 'auditor' } })).body,
      {
        enabled: true,
        status: 'active',
        name: 'auditor',
      },
    );
    t.is((await registry.call('GET', '/v1/proofs', as(key.key))).status, 200);

    clock.advance(3600_000);
    const expired = await registry.call('GET', '/v1/proofs', as(key.key));
    t.deepEqual([expired.status, expired.body.code], [401, 'expired_api_key']);
    t.is(expired.body.detail, `this API key expired at ${new Date(Date.parse('2026-12-01T13:00:00Z')).toISOString()}`);
    const listed = await registry.call('GET', '/v1/keys', { credential: token, wallet: owner.address });
    t.like(
      listed.body.items.find((k: { key_id: string }) => k.key_id === key.key_id),
      { status: 'expired', name: 'auditor' },
    );

    const usage = await registry.call('GET', `/v1/keys/${key.key_id}/usage?days=1`, { credential: token, wallet: owner.address });
    t.deepEqual(
      usage.body.endpoints.map((e: { endpoint: string; request_count: number; error_count: number }) => [e.endpoint, e.request_count, e.error_count]),
      [['GET /v1/proofs', 4, 2]],
    );
  });

  test.serial(`${label}: an unknown scope, no scopes, an expiry in the past or over 1,000 robots is a 422 naming it, and no key is made`, async (t) => {
    const before = (await registry.call('GET', '/v1/keys?limit=200', { credential: token, wallet: owner.address })).body.items.length;
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ scopes: ['proofs:write', 'proofs:delete'] }, 'scopes', /unknown scope "proofs:delete"/],
      [{ scopes: [] }, 'scopes', /at least one scope/],
      [{ expires_at: new Date(clock.nowMs() - 1000).toISOString() }, 'expires_at', /in the future/],
      [{ robot_ids: Array.from({ length: 1001 }, (_, i) => `r-${i}`) }, 'robot_ids', /at most 1000 robots/],
      [{ robot_ids: [] }, 'robot_ids', /at least one robot/],
    ];
    for (const [body, path, detail] of cases) {
      const r = await registry.call('POST', '/v1/keys', { credential: token, wallet: owner.address, body: { name: 'bad', ...body } });
      t.is(r.status, 422, JSON.stringify(body).slice(0, 80));
      t.is(r.body.path, path);
      t.regex(r.body.detail, detail);
    }
    t.is((await registry.call('GET', '/v1/keys?limit=200', { credential: token, wallet: owner.address })).body.items.length, before);
  });
}
