import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fleetOrderFlow } from './fleet-order.js';

// The fleet's order from the dashboard on an SQLite file.
const dir = mkdtempSync(path.join(tmpdir(), 'dashboard-order-'));
fleetOrderFlow('sqlite', { url: async () => `sqlite:${path.join(dir, 'registry.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) });
