/**
 * A user's preferences (the reference's user preferences API): the notification channels per kind
 * of notification, the user's own streak conditions, and (our addition) their leaderboard opt-out.
 * Stored in the user document; pure rules.
 *
 * - Notifications: per kind, the channels the user wants (`[]`: none). A kind never set is absent
 *   (the reference: "not present ... the user hasn't set preferences for it yet"). An update
 *   changes only the kinds it lists.
 * - Streak: `enabled` (false: the streak is set to 0 when turned off and never extended) and, when the
 *   tenant enables customization, the user's evaluation mode, metric thresholds (of the tenant's
 *   streak metrics) and days off, each overriding the tenant's when set. An update that sends
 *   `streak` replaces the user's streak preferences as a whole.
 * - Leaderboards: `optOut` (absent: false). An opted-out user keeps their game state (values are
 *   still counted in their document) but is in no leaderboard or streak ranking and no public read;
 *   their own reads say unranked. A preference rather than a reserved attribute: it is the user's
 *   own choice, made in the same preference center as notifications, and attributes are the
 *   customer's data (filters, breakdowns), where a reserved key could clash with one in use.
 */
import { checkDaysOff, type StreakEvaluationMode, type StreakMetricCondition, type StreakSettings } from "../../streaks/domain/streak-config.js";
import { isWithinAmountRange, MAX_AMOUNT } from "../../../engine/domain/decimal.js";

export const NOTIFICATION_KINDS = ["achievement_completed", "recap", "reactivation", "streak_reminder"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const NOTIFICATION_CHANNELS = ["email", "push"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export interface UserStreakPreferences {
  /** Absent: true. False: the streak reads 0 (set so when turned off, never extended, no freezes). */
  enabled?: boolean;
  evaluationMode?: StreakEvaluationMode;
  /** By metric ID; absent: the tenant's. */
  metrics?: StreakMetricCondition[];
  /** Weekdays off (0 = Sunday); absent: the tenant's; `[]`: none. */
  daysOff?: number[];
}

export interface UserLeaderboardPreferences {
  /** True: kept off every ranking and public read (see above). */
  optOut: boolean;
}

export interface UserPreferences {
  notifications: Partial<Record<NotificationKind, NotificationChannel[]>>;
  /** Null until the user's streak preferences are set. */
  streak: UserStreakPreferences | null;
  /** Absent until set (documents written before it existed have none): not opted out. */
  leaderboards?: UserLeaderboardPreferences;
}

/** Whether the user asked to be kept off leaderboards and rankings. */
export function isOptedOutOfLeaderboards(preferences: UserPreferences | undefined): boolean {
  return preferences?.leaderboards?.optOut === true;
}

export function emptyPreferences(): UserPreferences {
  return { notifications: {}, streak: null };
}

/** An update: notification kinds to set (others unchanged), and the streak preferences to replace (absent: unchanged). */
export interface PreferencesPatch {
  notifications?: Partial<Record<string, unknown[]>>;
  streak?: UserStreakPreferences;
  /** Absent (or `optOut` absent): unchanged. */
  leaderboards?: { optOut?: boolean };
}

/** Whether streak preferences override any condition (what needs the tenant's customization). */
export function customizesStreak(streak: UserStreakPreferences): boolean {
  return streak.evaluationMode !== undefined || streak.metrics !== undefined || streak.daysOff !== undefined;
}

/**
 * What is wrong with an update (field and rule), or null. `tenant`: the tenant's streak settings;
 * metric overrides must name its streak metrics (by ID, resolved from keys by the caller, who
 * names them `keys` in messages).
 */
export function checkPreferencesPatch(patch: PreferencesPatch, tenant: StreakSettings | null, keys: readonly string[] = []): string | null {
  for (const [kind, channels] of Object.entries(patch.notifications ?? {})) {
    if (!(NOTIFICATION_KINDS as readonly string[]).includes(kind))
      return `notifications.${kind} is not a notification type: use ${NOTIFICATION_KINDS.join(", ")}`;
    for (const [i, channel] of (channels ?? []).entries()) {
      if (typeof channel !== "string" || !(NOTIFICATION_CHANNELS as readonly string[]).includes(channel)) {
        return `notifications.${kind}[${i}] must be "email" or "push", got ${JSON.stringify(channel)}`;
      }
      if (channels!.indexOf(channel) !== i) return `notifications.${kind}[${i}] ("${channel}") is listed more than once`;
    }
  }
  const streak = patch.streak;
  if (!streak) return null;
  if (customizesStreak(streak) && !tenant?.customizationEnabled) {
    return "Streak customization is not enabled for this tenant: evaluationMode, metrics and daysOff need customizationEnabled in the streak settings";
  }
  if (streak.metrics) {
    if (streak.metrics.length === 0) return "streak.metrics must list at least one metric and its threshold (leave it out to use the tenant's)";
    for (const [i, condition] of streak.metrics.entries()) {
      const name = keys[i] ?? condition.metricId;
      if (!(condition.threshold > 0 && isWithinAmountRange(condition.threshold))) {
        return `streak.metrics[${i}].threshold must be a number greater than 0 and at most ${MAX_AMOUNT}, got ${condition.threshold}`;
      }
      if (streak.metrics.findIndex((c) => c.metricId === condition.metricId) !== i) return `streak.metrics[${i}].key "${name}" is listed more than once`;
      if (!tenant?.metrics.some((c) => c.metricId === condition.metricId))
        return `streak.metrics[${i}].key "${name}" is not one of the tenant's streak metrics`;
    }
  }
  return streak.daysOff ? checkDaysOff("streak.daysOff", streak.daysOff) : null;
}

/** The preferences after a checked update. */
export function applyPreferencesPatch(current: UserPreferences, patch: PreferencesPatch): UserPreferences {
  const notifications = { ...current.notifications };
  for (const [kind, channels] of Object.entries(patch.notifications ?? {})) notifications[kind as NotificationKind] = [...(channels as NotificationChannel[])];
  let streak = current.streak;
  if (patch.streak) {
    const s = patch.streak;
    streak = {
      ...(s.enabled !== undefined && { enabled: s.enabled }),
      ...(s.evaluationMode !== undefined && { evaluationMode: s.evaluationMode }),
      ...(s.metrics !== undefined && { metrics: s.metrics.map(({ metricId, threshold }) => ({ metricId, threshold })) }),
      ...(s.daysOff !== undefined && { daysOff: [...s.daysOff].sort((a, b) => a - b) }),
    };
  }
  const optOut = patch.leaderboards?.optOut;
  const leaderboards = optOut === undefined ? current.leaderboards : { optOut };
  return { notifications, streak, ...(leaderboards && { leaderboards }) };
}

/**
 * The streak rules that apply to one user: the tenant's, with the user's overrides when the tenant
 * enables customization (metric overrides of metrics no longer among the tenant's are ignored; with
 * none left the tenant's apply). A user who disabled streaks gets no condition and no freezes, so
 * their streak (set to 0 when they turned it off) is never extended.
 */
export function effectiveStreakSettings(tenant: StreakSettings | null, preferences: UserPreferences | undefined): StreakSettings | null {
  const prefs = preferences?.streak;
  if (!tenant || !prefs) return tenant;
  let settings = tenant;
  if (tenant.customizationEnabled) {
    const metrics = prefs.metrics?.filter((m) => tenant.metrics.some((c) => c.metricId === m.metricId));
    settings = {
      ...tenant,
      evaluationMode: prefs.evaluationMode ?? tenant.evaluationMode,
      metrics: metrics && metrics.length > 0 ? metrics : tenant.metrics,
      daysOff: tenant.frequency === "daily" ? (prefs.daysOff ?? tenant.daysOff) : [],
    };
  }
  if (prefs.enabled === false) settings = { ...settings, metrics: [], freezes: null };
  return settings;
}
