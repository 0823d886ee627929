#!/usr/bin/env node
// Runs the TypeScript CLI from a checkout (through tsx) or from a build (dist/).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../dist/src/adapters/cli/main.js', import.meta.url));
if (existsSync(built) && !process.env.PROOF_REGISTRY_FROM_SOURCE) {
  await import(built);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/adapters/cli/main.ts');
}
