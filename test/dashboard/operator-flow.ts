import { operatorFlowHarness, type FlowDatabase } from './operator-flow-harness.js';
import { keysAndFleetTests } from './operator-flow-keys-fleet.js';
import { proofsAndVerifyTests } from './operator-flow-proofs.js';

/**
 * What an operator does in the dashboard, on one database: sign in with a Wallet Standard
 * wallet, create a key and watch it be used, manage the fleet and its groups, read a device's
 * health, search proofs and open one, verify envelopes, and delete the key. Every view is
 * checked for console errors, CSP violations, requests to other origins and axe-core
 * (WCAG 2 A/AA) violations, and screenshotted.
 */
export function operatorFlow(label: string, database: FlowDatabase): void {
  const flow = operatorFlowHarness(label, database);
  // One walkthrough, in this order: the later tests read what the earlier ones made.
  keysAndFleetTests(label, flow);
  proofsAndVerifyTests(label, flow);
}
