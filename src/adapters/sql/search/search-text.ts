/** What an index names: a needle's proofs (trigram index) or a topic's (proof_topics). */
export type Hits = { readonly text: string } | { readonly topic: string };

/** A trigram index can serve a needle of three characters or more. */
export function indexable(text: string): boolean {
  let n = 0;
  for (const _ of text) if (++n >= 3) return true;
  return false;
}

/** The needle as one FTS5 phrase: with the trigram tokenizer, the proofs whose text holds it. */
export function ftsPhrase(text: string): string {
  return `"${text.toLowerCase().replaceAll('"', '""')}"`;
}

/** Makes `%`, `_` and the escape character itself match literally in LIKE … ESCAPE '\'. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The LIKE pattern of the text rule: the lower-cased needle anywhere, matched literally. */
export const likePattern = (text: string): string => `%${escapeLike(text.toLowerCase())}%`;
