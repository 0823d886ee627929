import * as E from 'fp-ts/lib/Either.js';

/** Longest device or group name, in Unicode code points, after trimming. */
export const NAME_MAX = 100;
/** Longest group description, in code points, after trimming. */
export const DESCRIPTION_MAX = 500;

export type TextProblem = 'empty' | 'too_long' | 'control_characters' | 'not_a_color';

export interface InvalidText {
  readonly _tag: 'InvalidText';
  readonly field: string;
  readonly problem: TextProblem;
  readonly max: number;
}

// Names are shown on dashboards and in logs: control characters (newlines, escapes, bidi
// overrides aside) would let a name forge lines or garble a terminal, so they are refused.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A device or group name: trimmed, then 1 to NAME_MAX code points with no control
 * characters. Counting code points, not UTF-16 units, so an emoji counts once.
 */
export function normalizeName(raw: string, field = 'name'): E.Either<InvalidText, string> {
  return normalizeText(raw, field, NAME_MAX, false) as E.Either<InvalidText, string>;
}

/** An optional short label (a device type): trimmed, at most `max` characters, no control characters; empty becomes null. */
export function normalizeLabel(raw: string | null | undefined, field: string, max: number): E.Either<InvalidText, string | null> {
  if (raw === null || raw === undefined) return E.right(null);
  return normalizeText(raw, field, max, true, false);
}

/** An optional description: trimmed; empty (or absent) becomes null. Line breaks are allowed. */
export function normalizeDescription(raw: string | null | undefined, field = 'description'): E.Either<InvalidText, string | null> {
  if (raw === null || raw === undefined) return E.right(null);
  return normalizeText(raw.replace(/\r\n?/g, '\n'), field, DESCRIPTION_MAX, true);
}

function normalizeText(raw: string, field: string, max: number, optional: boolean, lineBreaks = optional): E.Either<InvalidText, string | null> {
  const text = raw.trim();
  if (text === '') return optional ? E.right(null) : E.left({ _tag: 'InvalidText', field, problem: 'empty', max });
  if ([...text].length > max) return E.left({ _tag: 'InvalidText', field, problem: 'too_long', max });
  const forbidden = lineBreaks ? text.replace(/\n/g, '') : text;
  if (CONTROL.test(forbidden)) return E.left({ _tag: 'InvalidText', field, problem: 'control_characters', max });
  return E.right(text);
}

export function describeInvalidText(e: InvalidText): string {
  switch (e.problem) {
    case 'empty':
      return `${e.field} must not be empty or only whitespace`;
    case 'too_long':
      return `${e.field} must be at most ${e.max} characters after trimming`;
    case 'control_characters':
      return `${e.field} must not contain control characters`;
    case 'not_a_color':
      return `${e.field} must be a colour written #rgb or #rrggbb`;
  }
}
