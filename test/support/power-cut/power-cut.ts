import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('./durable-writes.c', import.meta.url));

/**
 * Builds the durable-writes library (durable-writes.c) with the machine's C compiler: the one
 * `npm ci` builds sqlite3 with, so wherever the registry installs, this builds. Its path goes
 * in LD_PRELOAD of the process whose disk it stands for.
 */
export function buildDurableWrites(): { library: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'durable-writes-'));
  const library = join(dir, 'durable-writes.so');
  const cc = process.env.CC ?? 'cc';
  try {
    execFileSync(cc, ['-shared', '-fPIC', '-O2', '-o', library, SOURCE, '-ldl'], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    throw new Error(`the power-cut test needs a C compiler (${cc}), as npm ci does to build sqlite3: ${err instanceof Error ? err.message : String(err)}`);
  }
  return { library, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * What a power cut leaves of the database files in `dir`: each file as it was at its last sync
 * (its .durable copy), or gone if it was never synced; the WAL index (-shm), never durable, gone.
 */
export function cutPower(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.durable')) continue;
    const file = join(dir, name);
    if (name.endsWith('-shm')) rmSync(file);
    else if (existsSync(`${file}.durable`)) copyFileSync(`${file}.durable`, file);
    else if (name.includes('.sqlite')) rmSync(file);
  }
  for (const name of readdirSync(dir)) if (name.endsWith('.durable')) rmSync(join(dir, name));
}
