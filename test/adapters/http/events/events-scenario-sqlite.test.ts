import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedScenario } from './events-scenario.js';

test('sqlite: a scripted sequence delivers every event to every subscribed endpoint, signed, and nothing to another wallet', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'events-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  await scriptedScenario(t, `sqlite:${join(dir, 'registry.sqlite')}`);
});
