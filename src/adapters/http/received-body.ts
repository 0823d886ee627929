import { receivedText } from '../../application/proofs/received-envelope.js';
import type { ReceivedEnvelope } from '../../domain/protocol/acto-hashes.js';
import { receivedMemberText } from '../../domain/protocol/received-json.js';
import { memberTextReader } from './member-text.js';

/**
 * Envelopes as the request body held them. An envelope hashed in the ACTO form (docs/protocol.md)
 * depends on its numbers' text (`56.0` is not `56`), which parsing loses: every route that
 * verifies hands the protocol the received text, read only when the JCS form does not match.
 */
export interface ReceivedBody {
  /** The envelope of `{"envelope": …}` as received, numbers' text kept. */
  envelope(): ReceivedEnvelope | undefined;
  /** Each envelope of `{"envelopes": [...]}` as received. */
  envelopes(): ((index: number) => ReceivedEnvelope) | undefined;
}

/** `maxDepth`: the protocol's nesting limit for one envelope; a body nests one or two levels more. */
export function receivedBody(rawBody: string | undefined, maxDepth: number): ReceivedBody {
  return {
    envelope: () => (rawBody === undefined ? undefined : receivedText(rawBody, maxDepth + 1)('envelope')),
    envelopes: () => {
      if (rawBody === undefined) return undefined;
      const read = receivedText(rawBody, maxDepth + 2);
      return (index) => read('envelopes', index);
    },
  };
}

const envelopeOnly = memberTextReader('envelope');

/**
 * The exact text of a body's `envelope` member, to be checked and stored as it was sent. A
 * body that is just `{"envelope": …}` is sliced without a second parse; any other (another
 * member, a `\u` escape, as Python's JSON writes non-ASCII text) is read keeping the text.
 */
export function submittedEnvelopeText(rawBody: string | undefined, parsed: unknown, maxDepth: number): string | undefined {
  if (rawBody === undefined) return undefined;
  return envelopeOnly(rawBody, parsed) ?? receivedMemberText(rawBody, 'envelope', maxDepth + 1);
}
