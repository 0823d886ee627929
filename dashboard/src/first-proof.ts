/**
 * The commands that send a first proof, filled in with this service's address, the wallet's
 * full address (a device sends it with every request) and, once made, the key. Shown by the
 * empty overview, proofs and fleet pages and by the new-key panel.
 */
export interface FirstProofInput {
  /** This service, as the browser reaches it (location.origin). */
  readonly origin: string;
  readonly wallet: string;
  /** The key just made; without it, a placeholder to replace. */
  readonly key?: string;
}

export interface Snippet {
  readonly id: 'curl' | 'cli' | 'acto';
  readonly label: string;
  /** What the commands need first, in a sentence. */
  readonly about: string;
  readonly text: string;
}

export const KEY_PLACEHOLDER = 'pr_live_…';

export function firstProofSnippets(o: FirstProofInput): readonly Snippet[] {
  const key = o.key ?? KEY_PLACEHOLDER;
  const sign = 'node bin/proof-registry.js sign --key device-key.json --task pick-42 --robot arm-07 examples/run.jsonl > envelope.json';
  return [
    {
      id: 'curl',
      label: 'curl',
      about: 'Posts a signed envelope (envelope.json, made by the CLI’s sign or the ACTO SDK’s create_proof).',
      text: [
        `curl -s ${o.origin}/v1/proofs \\`,
        `  -H "Authorization: Bearer ${key}" \\`,
        `  -H "X-Wallet-Address: ${o.wallet}" \\`,
        `  -H "Content-Type: application/json" \\`,
        `  -d "{\\"envelope\\": $(cat envelope.json)}"`,
      ].join('\n'),
    },
    {
      id: 'cli',
      label: 'CLI',
      about: 'In a checkout of Proof Registry: makes a device key, signs the example run with it, and submits the envelope.',
      text: [
        'node bin/proof-registry.js keygen --out device-key.json',
        sign,
        `PROOF_REGISTRY_API_KEY=${key} node bin/proof-registry.js submit envelope.json \\`,
        `  --url ${o.origin} --wallet ${o.wallet}`,
      ].join('\n'),
    },
    {
      id: 'acto',
      label: 'ACTO SDK',
      about: 'The ACTO Python SDK pointed at this service’s /acto: a robot’s code sends its envelopes unchanged.',
      text: [
        'from acto.client import ACTOClient',
        '',
        'client = ACTOClient(',
        `    api_key="${key}",`,
        `    wallet_address="${o.wallet}",`,
        `    base_url="${o.origin}/acto",`,
        ')',
        '# envelope: a proof made by the SDK’s create_proof',
        'print(client.submit_proof(envelope))',
      ].join('\n'),
    },
  ];
}
