/**
 * A token balance as the chain keeps it: an integer count of base units and the mint's
 * decimals. Sums and comparisons are exact (bigint); only display goes through a float.
 */
export interface TokenAmount {
  readonly raw: bigint;
  readonly decimals: number;
}

export const ZERO: TokenAmount = { raw: 0n, decimals: 0 };

const DECIMAL = /^(\d{1,30})(?:\.(\d{1,18}))?$/;

/** Parses a non-negative decimal such as `50000` or `12.5`; null for anything else. */
export function parseTokenAmount(text: string): TokenAmount | null {
  const m = DECIMAL.exec(text.trim());
  if (!m) return null;
  const fraction = m[2] ?? '';
  return { raw: BigInt(m[1]! + fraction), decimals: fraction.length };
}

/** The amount as a plain decimal string, without trailing zeros (`12.5`, `50000`). */
export function formatTokenAmount(a: TokenAmount): string {
  if (a.decimals === 0) return a.raw.toString();
  const digits = a.raw.toString().padStart(a.decimals + 1, '0');
  const whole = digits.slice(0, -a.decimals);
  const fraction = digits.slice(-a.decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** The "ui amount": whole tokens as a number, for responses and messages. */
export const toUiAmount = (a: TokenAmount): number => Number(formatTokenAmount(a));

function rescale(a: TokenAmount, decimals: number): bigint {
  return decimals >= a.decimals ? a.raw * 10n ** BigInt(decimals - a.decimals) : a.raw / 10n ** BigInt(a.decimals - decimals);
}

export function addTokenAmounts(a: TokenAmount, b: TokenAmount): TokenAmount {
  const decimals = Math.max(a.decimals, b.decimals);
  return { raw: rescale(a, decimals) + rescale(b, decimals), decimals };
}

/**
 * True when `balance` is at least `minimum` whole tokens. The minimum is a config number such
 * as 50000; both sides are compared exactly as decimals, never as floats.
 */
export function meetsMinimum(balance: TokenAmount, minimum: number): boolean {
  if (Number.isNaN(minimum)) return false;
  if (minimum <= 0) return true;
  const min = numberToTokenAmount(minimum);
  if (min === null) return false;
  const decimals = Math.max(balance.decimals, min.decimals);
  return rescale(balance, decimals) >= rescale(min, decimals);
}

/** The decimal a JavaScript number prints as (`0.1` is 0.1, not its binary neighbour). */
export function numberToTokenAmount(n: number): TokenAmount | null {
  if (!Number.isFinite(n) || n < 0) return null;
  const text = String(n);
  if (!/e/i.test(text)) return parseTokenAmount(text);
  return n >= 1 ? { raw: BigInt(n), decimals: 0 } : parseTokenAmount(n.toFixed(18));
}
