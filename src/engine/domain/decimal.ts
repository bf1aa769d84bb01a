import Big from "big.js";

/**
 * Metric totals are exact decimals. They are stored as decimal strings (e.g. "0.3") and summed with
 * big.js, so a hundred events of 0.1 total exactly 10, never 9.99999999999998. Callers see totals
 * as JSON numbers, converted once at the edge.
 */
export type DecimalString = string;

export const ZERO: DecimalString = "0";

/** The exact decimal of a finite number as JavaScript prints it (shortest round-trip form). */
export function decimalFromNumber(value: number): DecimalString {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  return new Big(value).toFixed();
}

export function addDecimals(a: DecimalString, b: DecimalString): DecimalString {
  return new Big(a).plus(b).toFixed();
}

export function subtractDecimals(a: DecimalString, b: DecimalString): DecimalString {
  return new Big(a).minus(b).toFixed();
}

/**
 * The range of amounts the service supports: event values, metric totals (and so leaderboard
 * values and summaries built from them) and metric thresholds lie within -1e15 to 1e15. Every
 * integer in it is exact as a double (2^53 is about 9.007e15, so a run's change of up to 2e15 is
 * too), and a total with at most 15 significant digits is rendered exactly as a JSON number. A total
 * outside it would be rendered rounded, or as `Infinity` beyond about 1.8e308.
 */
export const MAX_AMOUNT = 1e15;

/** Whether a finite amount lies within the supported range (±MAX_AMOUNT). */
export function isWithinAmountRange(value: number | DecimalString): boolean {
  if (typeof value === "number" && !Number.isFinite(value)) return false;
  return new Big(value).abs().lte(MAX_AMOUNT);
}

/** What is wrong with an amount a caller sends (finite, within the range), or null. */
export function checkAmount(field: string, value: number): string | null {
  if (!Number.isFinite(value)) return `${field} must be a finite number, got ${value}`;
  if (!isWithinAmountRange(value)) return `${field} must be between -${MAX_AMOUNT} and ${MAX_AMOUNT}, got ${value}`;
  return null;
}

export function decimalToNumber(value: DecimalString): number {
  return Number(value);
}
