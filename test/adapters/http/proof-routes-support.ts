import { proofVectors } from '../../support/fixtures.js';
import { fixedClock, startTestRegistry } from '../../support/registry.js';

// What the proof route tests share: the vectors, and a registry on a fixed clock.
export const vectors = proofVectors();
export const valid = vectors.cases.filter((v) => v.expect.valid);
export const invalid = vectors.cases.filter((v) => !v.expect.valid);

export const startProofRegistry = () => startTestRegistry({ clock: fixedClock('2026-11-20T10:30:00Z') });

// A wallet of its own for the tests that add proofs of their own (WALLET_B must stay empty for the invalid-vector test).
export const WALLET_C = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
