/**
 * Lifecycle messaging (issue 15, item 3): when a user is due a recap, a reactivation message, a
 * streak reminder or an achievement message. The service sends no e-mail or push itself: it emits
 * `emails.*` webhooks and the customer's systems send (the reference sends them itself). Pure: no
 * I/O, `now` is an argument.
 *
 * The schedule (in the user's zone in force now, UTC for a user without one):
 * - Recap (`emails.recap_due`): at 09:00 on the first day of each week (ISO, Monday) or month, for
 *   the period that just ended, when the user was active in it (a metric event on one of its days,
 *   by the daily history). A recap not sent by the end of the next period (the service was down)
 *   is skipped, not sent late.
 * - Reactivation (`emails.reactivation_due`): 3, 7 and 30 days (calendar days in the user's zone:
 *   the same wall-clock time, across DST) after the user's latest metric event, messageNumber 1, 2
 *   and 3, each at most once per inactivity spell (a spell is identified by the latest event's
 *   instant; a new event starts a new spell). When several steps are overdue at once only the
 *   latest is sent. Users who never had an event get none.
 * - Streak reminder (`emails.streak_reminder_due`): at 18:00 on the streak's `expires` date (the
 *   last day it can still be extended), once per date, only while the streak is live and the period
 *   that must be met is not yet met (extending it moves `expires` on), and not on a paused date.
 * - Achievement (`emails.achievement_due`): with the write that completes an achievement.
 *
 * Who gets them: only users with an e-mail address who have not set `subscribeToEmails` false, for
 * kinds whose notification preference is not `[]` (a kind never set is sent), and only when one of
 * the tenant's enabled endpoints subscribes to the type (otherwise nothing is due and nothing is
 * marked: see docs/webhooks.md for what subscribing later means).
 *
 * Exactly once: what was sent is marked in the user state (`LifecycleMarks`) in the same write as
 * the outbox message, so a retry, a restart or a second scheduler pass finds it marked; message IDs
 * derive from the user and the period (or spell step, date, completion), so even a repeated
 * hand-over could not make a second message.
 */
import { DateTime } from "luxon";
import { localDateIn, nextPeriodStart, periodEndDate, periodStartOf, previousPeriodStart, zoneAt } from "../../streaks/domain/streak-calendar.js";
import { readStreak, type StreakReadView } from "../../streaks/domain/streak.js";
import { userStreak } from "../../streaks/domain/streak-frequency.js";
import type { StreakSettings } from "../../streaks/domain/streak-config.js";
import type { NotificationKind } from "../../users/domain/preferences.js";
import type { UserState } from "../../../engine/domain/user.js";

export const LIFECYCLE_EVENT_TYPES = ["emails.recap_due", "emails.reactivation_due", "emails.streak_reminder_due", "emails.achievement_due"] as const;
export type LifecycleEventType = (typeof LIFECYCLE_EVENT_TYPES)[number];

/** The notification preference that governs each type. */
export const LIFECYCLE_KIND: Record<LifecycleEventType, NotificationKind> = {
  "emails.recap_due": "recap",
  "emails.reactivation_due": "reactivation",
  "emails.streak_reminder_due": "streak_reminder",
  "emails.achievement_due": "achievement_completed",
};

/** What was sent already (stored in the user document). */
export interface LifecycleMarks {
  /** The first date of the last period recapped. */
  recap?: string;
  /** The inactivity spell (the latest event's instant) and the last reactivation step sent in it. */
  reactivation?: { since: Date; sent: number };
  /** The `expires` date last reminded of. */
  streakReminder?: string;
}

export type RecapPeriod = "weekly" | "monthly";

export interface LifecycleSchedule {
  recapPeriod: RecapPeriod;
  /** Local hour of the recap, on the first day of the next period. */
  recapHour: number;
  /** Local hour of the streak reminder, on the last day the streak can be extended. */
  reminderHour: number;
  /** Days without activity before each reactivation message (messageNumber = index + 1). */
  reactivationDays: readonly number[];
}

export const DEFAULT_LIFECYCLE_SCHEDULE: LifecycleSchedule = { recapPeriod: "weekly", recapHour: 9, reminderHour: 18, reactivationDays: [3, 7, 30] };

export interface LifecycleOptions {
  /** Event types some enabled endpoint of the tenant subscribes to. */
  subscribed: ReadonlySet<string>;
  /** The streak rules that apply to this user (the tenant's with the user's preferences); null: no streaks. */
  streak: StreakSettings | null;
  schedule?: LifecycleSchedule;
}

/** A lifecycle message due now, with what its payload needs. */
export type DueLifecycleMessage =
  | { type: "emails.recap_due"; key: string; recap: { periodStart: string; periodEnd: string } }
  | { type: "emails.reactivation_due"; key: string; reactivation: { messageNumber: number; daysSinceLastActive: number } }
  | { type: "emails.streak_reminder_due"; key: string; streak: StreakReadView };

export interface LifecyclePlan {
  /** Messages due now, not sent before. */
  due: DueLifecycleMessage[];
  /** The marks after sending them. */
  marks: LifecycleMarks;
  /** The next instant (strictly after now) when something may become due; null: nothing scheduled. */
  next: { at: Date; type: LifecycleEventType } | null;
}

/**
 * Whether a lifecycle type may be sent to this user at all (not in the control group, which gets no
 * communications; e-mail, subscription, preference, an endpoint listening).
 */
export function lifecycleAllowed(user: UserState, type: LifecycleEventType, subscribed: ReadonlySet<string>): boolean {
  if (user.control || !subscribed.has(type)) return false;
  if (!user.email || !user.subscribeToEmails) return false;
  const channels = user.preferences?.notifications?.[LIFECYCLE_KIND[type]];
  return channels === undefined || channels.length > 0;
}

/** The instant a local date's wall-clock hour happens in a zone (a time skipped by DST moves forward). */
export function localTime(date: string, hour: number, zone: string): Date {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return DateTime.fromObject({ year, month, day, hour }, { zone }).toJSDate();
}

/** Whether the user had a metric event on a day of the period starting on `start` (by the daily history). */
export function activeIn(user: UserState, start: string, period: RecapPeriod): boolean {
  if (!user.lastEventAt) return false;
  const end = periodEndDate(start, period);
  for (const metric of Object.values(user.metrics)) {
    for (const day of Object.keys(metric.daily ?? {})) if (day >= start && day <= end) return true;
  }
  return false;
}

interface Candidate<T> {
  at: Date;
  message: T;
  mark: (marks: LifecycleMarks) => LifecycleMarks;
}

function recapCandidate(user: UserState, marks: LifecycleMarks, schedule: LifecycleSchedule, zone: string, now: Date): Candidate<DueLifecycleMessage> | null {
  const period = schedule.recapPeriod;
  const current = periodStartOf(localDateIn(now, zone), period);
  const previous = previousPeriodStart(current, period);
  const done = marks.recap ?? "";
  const make = (start: string, sendOn: string): Candidate<DueLifecycleMessage> => ({
    at: localTime(sendOn, schedule.recapHour, zone),
    message: { type: "emails.recap_due", key: start, recap: { periodStart: start, periodEnd: periodEndDate(start, period) } },
    mark: (m) => ({ ...m, recap: start }),
  });
  if (done < previous && activeIn(user, previous, period)) return make(previous, current);
  if (done < current && activeIn(user, current, period)) return make(current, nextPeriodStart(current, period));
  return null;
}

function reactivationCandidate(
  user: UserState,
  marks: LifecycleMarks,
  schedule: LifecycleSchedule,
  zone: string,
  now: Date,
): Candidate<DueLifecycleMessage> | null {
  const last = user.lastEventAt;
  if (!last) return null;
  const sent = marks.reactivation && marks.reactivation.since.getTime() === last.getTime() ? marks.reactivation.sent : 0;
  const from = DateTime.fromJSDate(last, { zone });
  const steps = schedule.reactivationDays.map((days) => from.plus({ days }).toJSDate());
  // The latest step reached (earlier ones are skipped when late), or the next one to come.
  let step = sent + 1;
  while (step < steps.length && steps[step]!.getTime() <= now.getTime()) step += 1;
  if (step > steps.length) return null;
  const daysSinceLastActive = Math.floor(DateTime.fromJSDate(now, { zone }).diff(from, "days").days);
  return {
    at: steps[step - 1]!,
    message: { type: "emails.reactivation_due", key: `${last.toISOString()}/${step}`, reactivation: { messageNumber: step, daysSinceLastActive } },
    mark: (m) => ({ ...m, reactivation: { since: last, sent: step } }),
  };
}

/** History periods shown in a reminder's streak (as the streak read's default). */
const REMINDER_HISTORY_PERIODS = 7;

function streakReminderCandidate(
  user: UserState,
  marks: LifecycleMarks,
  settings: StreakSettings | null,
  schedule: LifecycleSchedule,
  zone: string,
  now: Date,
): Candidate<DueLifecycleMessage> | null {
  if (!settings || !user.streak) return null;
  const read = readStreak(userStreak(user, settings, now), settings, user.tzHistory, now, REMINDER_HISTORY_PERIODS);
  const expires = read.streak.expires;
  if (read.streak.length === 0 || expires === null || marks.streakReminder === expires) return null;
  if (read.state.pauses.some((p) => p.start <= expires && p.end >= expires)) return null;
  return {
    at: localTime(expires, schedule.reminderHour, zone),
    message: { type: "emails.streak_reminder_due", key: expires, streak: read.streak },
    mark: (m) => ({ ...m, streakReminder: expires }),
  };
}

/**
 * The lifecycle messages due for a user at `now` (each sent at most once: the marks returned
 * record them) and the next instant one may become due, in the user's zone. Call on the state about
 * to be written (after the change); write the marks with the messages.
 */
export function planLifecycle(user: UserState, options: LifecycleOptions, now: Date): LifecyclePlan {
  const schedule = options.schedule ?? DEFAULT_LIFECYCLE_SCHEDULE;
  const zone = zoneAt(user.tzHistory, now);
  let marks: LifecycleMarks = user.lifecycle ?? {};
  const due: DueLifecycleMessage[] = [];
  const allowed = (type: LifecycleEventType) => lifecycleAllowed(user, type, options.subscribed);
  const candidates = (m: LifecycleMarks) =>
    [
      allowed("emails.recap_due") ? recapCandidate(user, m, schedule, zone, now) : null,
      allowed("emails.reactivation_due") ? reactivationCandidate(user, m, schedule, zone, now) : null,
      allowed("emails.streak_reminder_due") ? streakReminderCandidate(user, m, options.streak, schedule, zone, now) : null,
    ].filter((c): c is Candidate<DueLifecycleMessage> => c !== null);
  for (const candidate of candidates(marks)) {
    if (candidate.at.getTime() > now.getTime()) continue;
    due.push(candidate.message);
    marks = candidate.mark(marks);
  }
  // Only what lies ahead (never a past instant, which would wake the user every minute).
  const ahead = candidates(marks).filter((c) => c.at.getTime() > now.getTime());
  ahead.sort((a, b) => a.at.getTime() - b.at.getTime());
  const first = ahead[0];
  return { due, marks, next: first ? { at: first.at, type: first.message.type } : null };
}
