import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { apiReferenceFlow } from './api-reference.js';

// The API reference on an SQLite file.
const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-docs-'));
apiReferenceFlow('sqlite', { url: async () => `sqlite:${path.join(dir, 'registry.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) });
