import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { everyPage } from './every-page.js';
import { firstSteps } from './first-steps.js';
import { keyboardAndPhone } from './keyboard.js';

// Every page, signed out and in, at a desktop's width and a phone's, on an SQLite file.
const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-every-page-'));
const d = everyPage('sqlite', {
  url: async () => `sqlite:${path.join(dir, 'registry.sqlite')}`,
  drop: async () => rmSync(dir, { recursive: true, force: true }),
});
keyboardAndPhone(d);
firstSteps(d);
