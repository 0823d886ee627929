import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { operatorFlow } from './operator-flow.js';

// The operator's path through the dashboard on an SQLite file (the embedded default).
const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-flow-'));
operatorFlow('sqlite', { url: async () => `sqlite:${path.join(dir, 'registry.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) });
