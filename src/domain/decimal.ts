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

export function decimalToNumber(value: DecimalString): number {
  return Number(value);
}
