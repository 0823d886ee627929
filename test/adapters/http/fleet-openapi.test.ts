import test from 'ava';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openApiConformance } from '../../support/openapi-conformance.js';
import { fixedClock, type TestRegistry } from '../../support/registry.js';
import { startFleetRegistry, submitter, wallet } from './fleet-routes-support.js';

let registry: TestRegistry;
test.before(async () => {
  registry = await startFleetRegistry(fixedClock('2026-11-20T10:30:00Z'));
});
test.after.always(async () => registry?.close());
const submit = submitter(() => registry);

test('the OpenAPI document describes the fleet and statistics routes', async (t) => {
  const res = await registry.call(null, 'GET', '/openapi.json');
  const result = await new Validator().validate(res.body);
  t.true(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
  for (const [path, method] of [
    ['/v1/fleet', 'get'],
    ['/v1/fleet/devices/{device_id}', 'get'],
    ['/v1/fleet/devices/{device_id}/name', 'patch'],
    ['/v1/fleet/devices/{device_id}/health', 'get'],
    ['/v1/fleet/groups', 'get'],
    ['/v1/fleet/groups', 'post'],
    ['/v1/fleet/groups/{group_id}', 'get'],
    ['/v1/fleet/groups/{group_id}', 'delete'],
    ['/v1/fleet/groups/{group_id}/assign', 'post'],
    ['/v1/fleet/groups/{group_id}/unassign', 'post'],
    ['/v1/stats/wallet/{addr}', 'get'],
  ] as const) {
    const op = res.body.paths[path]?.[method];
    t.truthy(op, `${method} ${path}`);
    t.deepEqual(op.security, [{ walletJwt: [] }]);
  }
  // A robot reports its own health with an API key; the status is optional (derived when absent).
  const report = res.body.paths['/v1/fleet/devices/{device_id}/health'].post;
  t.deepEqual(report.security, [{ apiKey: ['health:write'] }, { walletJwt: [] }]);
  t.is(report['x-required-scope'], 'health:write');
  t.regex(report.responses['403'].description, /insufficient_scope.*robot_not_allowed/);
  const health = report.requestBody.content['application/json'].schema;
  t.deepEqual([health.properties.cpu_percent.minimum, health.properties.cpu_percent.maximum], [0, 100]);
  t.is(health.required, undefined);
  t.truthy(health.properties.custom_metrics && health.properties.battery_charging && health.properties.network_type);
});

test('real fleet and statistics responses match the schemas the OpenAPI document gives them', async (t) => {
  const check = openApiConformance((await registry.call(null, 'GET', '/openapi.json')).body);
  const w = wallet(90);
  await submit(w, 'conf-arm');
  const group = await registry.call(w, 'POST', '/v1/fleet/groups', { name: 'conformance', description: 'd' });
  const groupId = group.body.group_id as string;
  const calls: Array<[string, string, string, unknown?]> = [
    ['/v1/fleet', 'GET', '/v1/fleet'],
    ['/v1/fleet/devices/{device_id}', 'GET', '/v1/fleet/devices/conf-arm'],
    ['/v1/fleet/devices/{device_id}', 'GET', '/v1/fleet/devices/none-such'],
    ['/v1/fleet/devices/{device_id}/name', 'PATCH', '/v1/fleet/devices/conf-arm/name', { name: 'Arm' }],
    [
      '/v1/fleet/devices/{device_id}/health',
      'POST',
      '/v1/fleet/devices/conf-arm/health',
      { status: 'degraded', cpu_percent: 50, message: 'hot', metrics: { fan_rpm: 900 } },
    ],
    ['/v1/fleet/devices/{device_id}/health', 'POST', '/v1/fleet/devices/conf-arm/health', { status: 'ok', cpu_percent: 101 }],
    ['/v1/fleet/groups', 'GET', '/v1/fleet/groups'],
    ['/v1/fleet/groups/{group_id}', 'GET', `/v1/fleet/groups/${groupId}`],
    ['/v1/fleet/groups/{group_id}/assign', 'POST', `/v1/fleet/groups/${groupId}/assign`, { device_ids: ['conf-arm'] }],
    ['/v1/fleet/groups/{group_id}/assign', 'POST', `/v1/fleet/groups/${groupId}/assign`, { device_ids: ['nobody'] }],
    ['/v1/fleet/groups/{group_id}/unassign', 'POST', `/v1/fleet/groups/${groupId}/unassign`, { device_ids: ['conf-arm'] }],
    ['/v1/stats/wallet/{addr}', 'GET', `/v1/stats/wallet/${w}`],
    ['/v1/stats/wallet/{addr}', 'GET', `/v1/stats/wallet/${wallet(91)}`],
    ['/v1/fleet/groups/{group_id}', 'DELETE', `/v1/fleet/groups/${groupId}`],
  ];
  t.is(check('/v1/fleet/groups', 'POST', group.status, group.body), null);
  for (const [path, method, url, body] of calls) {
    const res = await registry.call(w, method, url, body);
    t.is(check(path, method, res.status, res.body), null);
  }
});
