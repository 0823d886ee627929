/** What each component computes, and how its reason phrases the numbers behind it. */
export interface ComponentResult {
  /** In [0, 1], rounded to 4 decimals. */
  readonly value: number;
  /** One sentence with the numbers, so a person can redo the arithmetic. */
  readonly reason: string;
}

/**
 * Rounds to 4 decimals. Scores are stored and compared; rounding makes the same inputs give
 * the same digits on every platform, whatever order the floating-point sums ran in.
 */
export const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

export const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);

export const result = (value: number, reason: string): ComponentResult => ({ value: round4(clamp01(value)), reason });

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** A duration as people read it: "45 s", "12 min", "3 h", "2.5 days". */
export function formatDuration(ms: number): string {
  const abs = Math.abs(ms);
  const trim = (x: number): string => String(Math.round(x * 10) / 10);
  if (abs < 60_000) return `${trim(abs / 1000)} s`;
  if (abs < 3_600_000) return `${trim(abs / 60_000)} min`;
  if (abs < 86_400_000) return `${trim(abs / 3_600_000)} h`;
  const days = abs / 86_400_000;
  return `${trim(days)} ${days === 1 ? 'day' : 'days'}`;
}
