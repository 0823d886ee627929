import * as E from 'fp-ts/lib/Either.js';
import type { ReceivedEnvelope } from '../../domain/protocol/acto-hashes.js';
import type { ProofFailure } from '../../domain/protocol/failures.js';
import { parseReceivedJson, parsedValueOf, type ReceivedJson } from '../../domain/protocol/received-json.js';

/**
 * An envelope as the protocol checks it: the parsed value, and where its numbers' text can be
 * read when the ACTO form is needed (docs/protocol.md, "The ACTO form": it depends on the text as received).
 */
export interface EnvelopeToCheck {
  readonly raw: unknown;
  readonly received?: ReceivedEnvelope;
  /** The envelope's own JSON text, when that is what was given: it parses to exactly `raw`. */
  readonly json?: string;
}

/**
 * What `ProofProtocol.verify` and `check` take, read into an EnvelopeToCheck: a Map is an
 * envelope read by parseReceivedJson (numbers' text kept; JSON.parse never makes one), and
 * anything else a parsed value, `received`, when given, being the same envelope as received.
 * A string is a JSON value like any other (and no envelope): text goes to `verifyText`.
 */
export function envelopeToCheck(input: unknown, received?: ReceivedEnvelope): EnvelopeToCheck {
  if (input instanceof Map) return { raw: parsedValueOf(input as Map<string, ReceivedJson>), received: () => input as Map<string, ReceivedJson> };
  return received === undefined ? { raw: input } : { raw: input, received };
}

/**
 * An envelope's JSON text: parsed with JSON.parse for checks 1–3 and the JCS form, and read
 * again keeping numbers' text only if the JCS form does not match.
 */
export function envelopeFromText(text: string, maxDepth: number): E.Either<ProofFailure, EnvelopeToCheck> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return E.left({ _tag: 'MalformedEnvelope', path: 'envelope', problem: `is not JSON text (${why})` });
  }
  return E.right({ raw, received: receivedText(text, maxDepth)(), json: text });
}

/**
 * The values found at member paths of one JSON text (`()` for the text itself, `('envelope')`
 * for the body `{"envelope": …}`, `('envelopes', 3)` for a batch's fourth), read keeping each
 * number's text. The text is read once, at the first call of any of the functions returned, so
 * a body whose envelopes all match in the JCS form is never read again. `maxDepth` limits the
 * nesting of the whole text; a text that is not JSON, or nests deeper, gives null.
 */
export function receivedText(text: string, maxDepth: number): (...path: ReadonlyArray<string | number>) => ReceivedEnvelope {
  let read: ReceivedJson | undefined | null;
  const document = (): ReceivedJson | null => {
    if (read === undefined) {
      const parsed = parseReceivedJson(text, maxDepth);
      read = E.isRight(parsed) ? parsed.right : null;
    }
    return read;
  };
  return (...path) =>
    () => {
      let value: ReceivedJson | undefined = document() ?? undefined;
      for (const step of path) value = at(value, step);
      return value === undefined ? null : value;
    };
}

function at(value: ReceivedJson | undefined, step: string | number): ReceivedJson | undefined {
  if (typeof step === 'number') return Array.isArray(value) ? value[step] : undefined;
  return value instanceof Map ? value.get(step) : undefined;
}
