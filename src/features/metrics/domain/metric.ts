import { checkName, hasControlCharacter, isValidMetricKey, MAX_KEY_LENGTH } from "../../../engine/domain/rules.js";

export type UnitType = "number" | "currency";

/** A metric as configured through the Admin API. */
export interface MetricConfig {
  id: string;
  key: string;
  name: string;
  unitType: UnitType;
  units: string;
  created: Date;
  updated: Date;
}

export interface MetricDraft {
  name: string;
  key: string;
  unitType?: UnitType;
  units?: string;
}

export interface MetricChanges {
  name?: string;
  unitType?: UnitType;
  units?: string;
}

/** ISO 4217 codes are three capital letters; the list of live codes changes, the shape does not. */
const CURRENCY_CODE = /^[A-Z]{3}$/;

/** Returns what is wrong with a new metric, or null when it can be created. */
export function checkMetricDraft(draft: MetricDraft): string | null {
  return checkName(draft.name) ?? checkKey(draft.key) ?? checkUnits(draft.unitType ?? "number", draft.units ?? "");
}

/** Returns what is wrong with a metric update, or null when it can be applied. */
export function checkMetricChanges(current: MetricConfig, changes: MetricChanges): string | null {
  if (changes.name !== undefined) {
    const problem = checkName(changes.name);
    if (problem) return problem;
  }
  return checkUnits(changes.unitType ?? current.unitType, unitsAfter(current, changes));
}

/** The units after an update: as sent, else cleared when the unit type changes (a currency code means nothing for a number), else kept. */
export function unitsAfter(current: MetricConfig, changes: MetricChanges): string {
  if (changes.units !== undefined) return changes.units;
  return changes.unitType !== undefined && changes.unitType !== current.unitType ? "" : current.units;
}

function checkKey(key: string): string | null {
  if (key === "") return "key is required";
  if (!isValidMetricKey(key)) {
    return `key "${key}" is invalid: use lower-case letters and digits in words joined by hyphens (e.g. "words-written"), at most ${MAX_KEY_LENGTH} characters`;
  }
  return null;
}

function checkUnits(unitType: UnitType, units: string): string | null {
  if (unitType === "currency" && !CURRENCY_CODE.test(units)) {
    return `units must be an ISO 4217 currency code (e.g. "USD") for a currency metric, got "${units}"`;
  }
  if (units.length > 32) return "units must be at most 32 characters";
  if (hasControlCharacter(units)) return "units must not contain control characters (such as NUL, a line break or ESC)";
  return null;
}
