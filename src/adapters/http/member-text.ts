/** JSON's whitespace (RFC 8259): space, tab, line feed, carriage return, as a regular expression. */
const WS = '[\\t\\n\\r ]*';

/**
 * Reads the exact JSON text of the one member `name` of a request body, when that can be told without
 * parsing the body again; otherwise undefined.
 *
 * `text` is the body as received and `parsed` what JSON.parse made of it. The answer is the
 * slice of `text` between `{"name":` and the closing `}`, and it is given only when:
 * - `parsed` is an object whose only own key is `name`;
 * - `text` opens with `{`, then `"name"` spelled literally, then `:` (whitespace allowed);
 * - `text` holds `"name"` nowhere else and no `\u` escape at all.
 *
 * Those conditions make the slice the member's value and nothing more. The text is valid JSON
 * that parses to an object, so its first member is `name` and the value starts after the
 * colon. Any further member would need a key of its own: a different key would show in
 * `parsed`, and the same key again (JSON.parse keeps the last) would need `"name"` again or a
 * spelling with `\u` escapes, the only escapes a key made of letters can have. So the value
 * runs to the last `}` of the text, less trailing whitespace.
 *
 * The slice parses to exactly `parsed[name]`: numbers keep their spelling (`1e400`, `-0`),
 * strings their escapes, objects their key order. A body in any other form (another member,
 * an escaped key, the name inside a string) gets undefined, and the caller serializes.
 */
export function memberTextReader(name: string): (text: string | undefined, parsed: unknown) => string | undefined {
  // The reasoning above holds for a name of letters (and `_`): no escape but `\u` can spell it.
  if (!/^[A-Za-z_]+$/.test(name)) throw new Error(`memberTextReader takes a name of letters, not ${JSON.stringify(name)}`);
  const quoted = `"${name}"`;
  const opening = new RegExp(`^${WS}\\{${WS}${quoted}${WS}:${WS}`);
  return (text, parsed) => {
    if (text === undefined || typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const keys = Object.keys(parsed);
    if (keys.length !== 1 || keys[0] !== name) return undefined;
    const open = opening.exec(text);
    if (open === null) return undefined;
    const start = open[0].length;
    if (text.includes(quoted, start) || text.includes('\\u')) return undefined;
    let end = text.lastIndexOf('}');
    while (end > start && isJsonWhitespace(text.charCodeAt(end - 1))) end--;
    return end > start ? text.slice(start, end) : undefined;
  };
}

const isJsonWhitespace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
