import type { ExecutionContext } from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { run } from '../../../src/adapters/cli/main.js';
import { hexToBytes } from '../../../src/domain/protocol/encoding.js';
import { proofVectors } from '../../support/fixtures.js';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI in-process, as `proof-registry <argv>` would run in `cwd` with `stdin`. */
export async function cli(argv: readonly string[], cwd: string, stdin = ''): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from([Buffer.from(stdin, 'utf8')]),
    cwd,
  });
  return { code, stdout, stderr };
}

/** A fresh directory removed when the test ends. */
export function tempDir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'proof-registry-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

/** The seed the independent implementation signed test/fixtures/proofs/vectors.json with. */
export const VECTOR_SEED = hexToBytes(proofVectors().device_seed_hex)!;

export const keyJson = (fields: Record<string, unknown>): string => JSON.stringify(fields);

export const EVENTS = [
  { ts: '2026-11-20T09:59:00+00:00', topic: 'nav/pose', data: { seq: 0, x: 1.25, ok: true } },
  { ts: '2026-11-20T09:59:30Z', topic: 'safety/state', data: { seq: 1, note: 'Zürich ✓ "q"\n', v: [1e-7, 1e21, { deep: null }] } },
] as const;

export const jsonl = (events: readonly unknown[]): string => events.map((e) => JSON.stringify(e)).join('\n') + '\n';
