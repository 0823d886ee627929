import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventsDashboard } from './events-dashboard.js';
import { liveFlow } from './live-flow.js';
import { webhooksFlow } from './webhooks-flow.js';

// Webhooks, the Activity feed and the live fleet on an SQLite file; the refusal of a private
// address needs a second registry, started here only.
const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-events-'));
const d = eventsDashboard('sqlite', {
  url: async () => `sqlite:${path.join(dir, 'registry.sqlite')}`,
  drop: async () => rmSync(dir, { recursive: true, force: true }),
});
webhooksFlow(d, { refusedPrivate: true });
liveFlow(d);
