import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export const readFixture = (path: string): string => readFileSync(join(FIXTURES, path), 'utf8');
export const readJsonFixture = <T>(path: string): T => JSON.parse(readFixture(path)) as T;
export const listFixtures = (dir: string): string[] => readdirSync(join(FIXTURES, dir)).sort();

export interface ProofVectorCase {
  name: string;
  note: string;
  envelope: unknown;
  expect: { valid: boolean; proof_id?: string; detail_mentions?: string[] };
  canonical_payload?: string;
  canonical_telemetry?: string;
}

export interface ProofVectors {
  device_seed_hex: string;
  cases: ProofVectorCase[];
}

export const proofVectors = (): ProofVectors => readJsonFixture<ProofVectors>('proofs/vectors.json');
