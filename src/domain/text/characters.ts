/**
 * The length of a text in characters (Unicode code points), as JSON Schema's minLength and
 * maxLength count it and as people do: an emoji is one character, where String#length counts
 * it as two UTF-16 code units. Every length limit of the registry is in these characters.
 */
export function characterCount(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** Whether `text` has from `min` to `max` characters; decided from its length alone where it can. */
export function hasCharacters(text: string, min: number, max: number): boolean {
  // A character is one or two code units, so the unit count bounds the character count.
  if (text.length < min || text.length > 2 * max) return false;
  if (text.length <= max && text.length >= 2 * min) return true;
  const n = characterCount(text);
  return n >= min && n <= max;
}
