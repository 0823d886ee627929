import * as t from 'io-ts';
import { EnvelopeCodec } from '../../../application/codecs/envelope.codec.js';
import { BUNDLE_FORMAT } from '../../../domain/log/proof-bundle.js';
import { described } from './common.codecs.js';

/** GET /v1/proofs/{proof_id}/bundle's answer (docs/log.md, "Proof bundles"), members in this order. */
export const ProofBundleResponse = t.type(
  {
    format: t.literal(BUNDLE_FORMAT),
    proof_id: t.string,
    envelope: EnvelopeCodec,
    envelope_text: described(t.string, { type: 'string', description: "The envelope's text exactly as submitted: what is verified (numbers as written)." }),
    log_index: t.number,
    tree_size: t.number,
    leaf_hash: t.string,
    hashes: t.array(t.string),
    checkpoint: t.string,
    tlog_proof: t.string,
  },
  'ProofBundle',
);
