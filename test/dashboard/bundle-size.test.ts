import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import test from 'ava';
import { buildDashboard, DIST } from '../../dashboard/build.js';

// The page's first load (index.html, the stylesheet, the entry script and what it imports
// statically) stays under 60 KB gzipped; charts load later, only on views that have one.
const BUDGET = 60 * 1024;

test('the initial load of the dashboard is under 60 KB gzipped, and charts are not part of it', async (t) => {
  const { initial } = await buildDashboard({ ifStale: true });
  const sizes = initial.map((f) => [f, gzipSync(readFileSync(path.join(DIST, f)), { level: 9 }).length] as const);
  const total = sizes.reduce((n, [, s]) => n + s, 0);
  t.log(sizes.map(([f, s]) => `${f}: ${(s / 1024).toFixed(1)} KB`).join(', '), `total ${(total / 1024).toFixed(1)} KB gzipped`);
  t.true(total < BUDGET, `initial load is ${total} bytes gzipped; the budget is ${BUDGET}`);
  t.true(initial.some((f) => f.endsWith('.css')) && initial.some((f) => /app-.*\.js$/.test(f)));
  const scripts = initial
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(path.join(DIST, f), 'utf8'))
    .join('\n');
  // uPlot (it names its legend class u-legend) is absent from the first load.
  t.false(scripts.includes('u-legend'), 'uPlot is in the initial load');
});
