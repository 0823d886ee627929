import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { statsPage } from './stats-page.js';

// The Statistics page on an SQLite file (the embedded default).
const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-stats-'));
statsPage('sqlite', { url: async () => `sqlite:${path.join(dir, 'registry.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) });
