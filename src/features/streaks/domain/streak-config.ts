/**
 * The tenant's streak rules as configured through the Admin API: one settings document per tenant.
 * Pure: the tenant's metric IDs come in as an argument.
 */
import { isWithinAmountRange, MAX_AMOUNT } from "../../../engine/domain/decimal.js";

export type StreakFrequency = "daily" | "weekly" | "monthly";
/**
 * How several metric conditions combine. The reference documentation says `ALL`/`OR`, its OpenAPI
 * `AND`/`OR`; we name them `all` (every threshold met) and `any` (one threshold met).
 */
export type StreakEvaluationMode = "all" | "any";

export interface StreakMetricCondition {
  metricId: string;
  /** The minimum total of the metric's event values within one period. */
  threshold: number;
}

export interface StreakFreezeSettings {
  /** Freezes a user holds when first identified. */
  initialGrant: number;
  /** The most freezes a user can hold. */
  maxFreezes: number;
  /** Freezes granted every `intervalDays` days, or null for no automatic earning. */
  autoEarn: { amount: number; intervalDays: number } | null;
}

export interface StreakSettings {
  frequency: StreakFrequency;
  metrics: StreakMetricCondition[];
  evaluationMode: StreakEvaluationMode;
  /** Null when freezes are off. */
  freezes: StreakFreezeSettings | null;
  /** Whether users' streak preferences override the conditions and days off (absent: false). */
  customizationEnabled?: boolean;
  /**
   * Weekdays off of a daily streak, 0 = Sunday to 6 = Saturday (JavaScript's `getDay()`, as the
   * reference): missing one holds the streak, meeting the condition on one counts for nothing
   * (streak.ts; absent: none).
   */
  daysOff?: number[];
}

/** The settings as requested; `undefined` means not given. */
export interface StreakSettingsDraft {
  frequency?: StreakFrequency;
  metrics: StreakMetricCondition[];
  evaluationMode?: StreakEvaluationMode;
  freezes?: StreakFreezeSettings | null;
  customizationEnabled?: boolean;
  daysOff?: number[];
}

export const MAX_FREEZES_LIMIT = 100;

/** What is wrong with the settings (field and rule), or null. */
export function checkStreakSettings(draft: StreakSettingsDraft): string | null {
  if (draft.frequency === undefined) return 'frequency is required: "daily", "weekly" or "monthly"';
  if (draft.metrics.length === 0) return "metrics must list at least one metric and its threshold";
  for (const [i, condition] of draft.metrics.entries()) {
    if (condition.metricId === "") return `metrics[${i}].metricId is required`;
    if (!(condition.threshold > 0 && isWithinAmountRange(condition.threshold))) {
      return `metrics[${i}].threshold must be a number greater than 0 and at most ${MAX_AMOUNT} (the largest total), got ${condition.threshold}`;
    }
    if (draft.metrics.findIndex((c) => c.metricId === condition.metricId) !== i) {
      return `metrics[${i}].metricId "${condition.metricId}" is listed more than once: give each metric one threshold`;
    }
  }
  const daysOff = checkDaysOff("daysOff", draft.daysOff ?? []);
  if (daysOff) return daysOff;
  if ((draft.daysOff ?? []).length > 0 && draft.frequency !== "daily")
    return `daysOff must be empty unless the frequency is "daily" (it is "${draft.frequency}")`;
  return draft.freezes ? checkFreezes(draft.freezes) : null;
}

/** What is wrong with a list of weekdays off (0 = Sunday to 6 = Saturday, each once), or null. */
export function checkDaysOff(field: string, daysOff: readonly number[]): string | null {
  for (const [i, day] of daysOff.entries()) {
    if (!Number.isInteger(day) || day < 0 || day > 6) return `${field}[${i}] must be a weekday from 0 (Sunday) to 6 (Saturday), got ${day}`;
    if (daysOff.indexOf(day) !== i) return `${field}[${i}] (${day}) is listed more than once`;
  }
  return null;
}

function checkFreezes(freezes: StreakFreezeSettings): string | null {
  const { initialGrant, maxFreezes, autoEarn } = freezes;
  if (!Number.isInteger(maxFreezes) || maxFreezes < 0 || maxFreezes > MAX_FREEZES_LIMIT) {
    return `freezes.maxFreezes must be a whole number from 0 to ${MAX_FREEZES_LIMIT}, got ${maxFreezes}`;
  }
  if (!Number.isInteger(initialGrant) || initialGrant < 0) return `freezes.initialGrant must be a whole number of at least 0, got ${initialGrant}`;
  if (initialGrant > maxFreezes) return `freezes.initialGrant (${initialGrant}) must not exceed freezes.maxFreezes (${maxFreezes})`;
  if (autoEarn) {
    if (!Number.isInteger(autoEarn.amount) || autoEarn.amount < 1)
      return `freezes.autoEarn.amount must be a whole number of at least 1, got ${autoEarn.amount}`;
    if (!Number.isInteger(autoEarn.intervalDays) || autoEarn.intervalDays < 1) {
      return `freezes.autoEarn.intervalDays must be a whole number of at least 1, got ${autoEarn.intervalDays}`;
    }
  }
  return null;
}

/** The settings of a checked draft, defaults applied (`all` when the mode is not given). */
export function streakSettings(draft: StreakSettingsDraft): StreakSettings {
  return {
    frequency: draft.frequency!,
    metrics: draft.metrics.map(({ metricId, threshold }) => ({ metricId, threshold })),
    evaluationMode: draft.evaluationMode ?? "all",
    freezes: draft.freezes
      ? {
          initialGrant: draft.freezes.initialGrant,
          maxFreezes: draft.freezes.maxFreezes,
          autoEarn: draft.freezes.autoEarn ? { amount: draft.freezes.autoEarn.amount, intervalDays: draft.freezes.autoEarn.intervalDays } : null,
        }
      : null,
    customizationEnabled: draft.customizationEnabled ?? false,
    daysOff: [...(draft.daysOff ?? [])].sort((a, b) => a - b),
  };
}

/**
 * A partial update in the published clients' form (PATCH): fields not given keep their value;
 * `freezes: null` turns freezes off; a frequency other than daily clears the days off even when
 * they are not given (as the reference says). Without current settings every field but the
 * defaults must be given. Returns the draft to check.
 */
export interface StreakSettingsPatch {
  frequency?: StreakFrequency;
  metrics?: StreakMetricCondition[];
  evaluationMode?: StreakEvaluationMode;
  freezes?: StreakFreezeSettings | null;
  customizationEnabled?: boolean;
  daysOff?: number[];
}

export function patchStreakSettings(current: StreakSettings | null, patch: StreakSettingsPatch): StreakSettingsDraft {
  const frequency = patch.frequency ?? current?.frequency;
  let daysOff = patch.daysOff ?? current?.daysOff ?? [];
  if (frequency !== "daily" && patch.daysOff === undefined) daysOff = [];
  return {
    frequency,
    metrics: patch.metrics ?? current?.metrics ?? [],
    evaluationMode: patch.evaluationMode ?? current?.evaluationMode,
    freezes: patch.freezes !== undefined ? patch.freezes : (current?.freezes ?? null),
    customizationEnabled: patch.customizationEnabled ?? current?.customizationEnabled ?? false,
    daysOff,
  };
}

/** What is wrong with the metrics the settings refer to, or null: they must be the tenant's. */
export function checkStreakReferences(settings: StreakSettings, metricIds: ReadonlySet<string>): string | null {
  const index = settings.metrics.findIndex((c) => !metricIds.has(c.metricId));
  return index >= 0 ? `metrics[${index}].metricId "${settings.metrics[index]!.metricId}" is not a metric of this tenant` : null;
}
