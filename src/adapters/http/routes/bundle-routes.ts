import type { GetProofBundle, ProofBundleFailure } from '../../../application/log/get-proof-bundle.js';
import { serializeBundle } from '../../../domain/log/proof-bundle.js';
import { ProofBundleResponse } from '../codecs/bundle.codecs.js';
import * as c from '../codecs/proof.codecs.js';
import { HttpError, orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED, errorResponses } from './error-responses.js';
import { logProblem } from './log-problems.js';
import { proofProblem } from './proof-problems.js';

export interface BundleRouteDeps {
  readonly bundle: GetProofBundle;
}

const errors = errorResponses({
  404: 'No such proof for this wallet (code not_found), or no published checkpoint covers it yet (code not_in_log: retry shortly).',
});

/** A bundle's failure to its status: the proofs' and the log's switches, with the bundle's own word for "not yet". */
function bundleProblem(e: ProofBundleFailure): HttpError {
  switch (e._tag) {
    case 'ProofNotFound':
      return proofProblem(e);
    case 'NotInLog':
      return new HttpError(404, 'this proof is not yet in a checkpoint: no published checkpoint covers it yet; retry shortly', { code: 'not_in_log' });
    default:
      return logProblem(e);
  }
}

/** A proof's offline-verifiable bundle (docs/log.md, "Proof bundles"). */
export function bundleRoutes(d: BundleRouteDeps): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/v1/proofs/{proof_id}/bundle',
      operationId: 'getProofBundle',
      tag: 'proofs',
      summary: "A proof's bundle: envelope, inclusion proof and cosigned checkpoint",
      description:
        'The envelope, its RFC 9162 inclusion proof and the latest signed checkpoint (with its cosignatures), in one JSON document that `proof-registry verify BUNDLE --log-key VKEY` checks offline; `tlog_proof` is the same proof as a c2sp.org/tlog-proof@v1. Its bytes are the canonical serialization (JSON.stringify with 2-space indentation and a final newline): keep them as they are, a verifier refuses any change.',
      auth: 'api_key',
      scope: 'proofs:read',
      params: c.ProofIdParams,
      responses: { 200: { description: 'The bundle, as a file to keep.', body: ProofBundleResponse }, ...errors(404, ...AUTHED) },
      handle: async ({ params, principal }) => {
        const bundle = orProblem(await d.bundle.execute({ wallet: principal.wallet, proofId: params.proof_id }), bundleProblem);
        return {
          status: 200,
          body: serializeBundle(bundle),
          headers: {
            'Content-Type': 'application/json; charset=utf-8',
            'Content-Disposition': `attachment; filename="${bundle.proof_id}.bundle.json"`,
          },
        };
      },
    }),
  ];
}
