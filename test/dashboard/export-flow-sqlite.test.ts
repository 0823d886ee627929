import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exportFlow } from './export-flow.js';

// Exporting from the proofs page on an SQLite file (the embedded default).
const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-export-'));
exportFlow('sqlite', { url: async () => `sqlite:${path.join(dir, 'registry.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) });
