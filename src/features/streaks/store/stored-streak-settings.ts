import type { StreakEvaluationMode, StreakFreezeSettings, StreakFrequency, StreakMetricCondition, StreakSettings } from "../domain/streak-config.js";

/** How the streak settings document reads, whichever version of the service wrote it. */

/** Settings as stored by any version (documents written before days off and customization existed read as none). */
export function storedStreakSettings(doc: Record<string, unknown>): StreakSettings {
  return {
    frequency: doc.frequency as StreakFrequency,
    metrics: doc.metrics as StreakMetricCondition[],
    evaluationMode: doc.evaluationMode as StreakEvaluationMode,
    freezes: (doc.freezes as StreakFreezeSettings | null | undefined) ?? null,
    customizationEnabled: (doc.customizationEnabled as boolean | undefined) ?? false,
    daysOff: (doc.daysOff as number[] | undefined) ?? [],
  };
}
