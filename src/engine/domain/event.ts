import { addDecimals, checkAmount, decimalFromNumber, isWithinAmountRange, MAX_AMOUNT, ZERO, type DecimalString } from "./decimal.js";
import { DomainError, invalidArgument } from "./errors.js";
import { localDate, recordDailyChange } from "./history.js";
import { react, type EngineConfig, type Reactions } from "./reactions.js";
import { checkUserUpsert, upsertUser, zoneInForce, type UserState, type UserUpsert } from "./user.js";
import { effectiveStreakSettings } from "../../features/users/domain/preferences.js";
import { followStreakFrequency } from "../../features/streaks/domain/streak-frequency.js";

/** One interaction of one user against one metric. */
export interface MetricEvent {
  eventId: string;
  metricId: string;
  /** When the event happened: now, or an admin-set timestamp. */
  at: Date;
  user: UserUpsert;
  value: number;
  attributes: Record<string, string>;
}

/** Everything an event changed, for the response. Later features add their parts here. */
export interface EventOutcome {
  eventId: string;
  metricId: string;
  total: DecimalString;
  /** Achievements completed and points changed by this event. */
  reactions: Reactions;
}

/** Checks the parts of an event that the proto rules cannot state. */
export function validateEvent(event: MetricEvent): void {
  const problem = checkAmount("value", event.value);
  if (problem) throw invalidArgument(problem);
  const userProblem = checkUserUpsert(event.user, "user.");
  if (userProblem) throw invalidArgument(userProblem);
}

/**
 * Applies an event to a user's state: updates the user's fields, then adds the value to the metric
 * total exactly. Pure: `now` is an argument, the result is the next state and the outcome.
 */
/** An event this much older than its arrival is backdated (an admin timestamp: an import or backfill). */
const BACKDATED_AFTER_MS = 60_000;
/**
 * After a backdated event the user's time-driven work waits this long (engine/domain/reactions.ts
 * `plannedDueAt`): the scheduler would otherwise judge the periods after it at once (its due time
 * lies in the past), and an import's next events, for those very days, would come too late to count
 * for them. Each backdated event moves the wait on, so an import that keeps sending a user's events
 * is judged once, ten minutes after its last one.
 */
export const BACKFILL_QUIET_MS = 10 * 60_000;

export function applyEvent(
  state: UserState,
  event: MetricEvent,
  now: Date,
  config: EngineConfig,
  userCreated: boolean,
): { state: UserState; outcome: EventOutcome } {
  validateEvent(event);
  if (state.lastEventAt !== null && event.at < state.lastEventAt) {
    throw new DomainError(
      "unprocessable",
      `Event timestamp ${event.at.toISOString()} is older than this user's latest applied event (${state.lastEventAt.toISOString()}); events of a user are applied in time order`,
    );
  }
  const user = followFrequency({ ...upsertUser(state, event.user, event.at), lastEventAt: event.at }, config, event.at);
  if (now.getTime() - event.at.getTime() > BACKDATED_AFTER_MS) user.backfillQuietUntil = new Date(now.getTime() + BACKFILL_QUIET_MS);
  const previous = user.metrics[event.metricId] ?? { total: ZERO, daily: {} };
  const change = decimalFromNumber(event.value);
  const total = addDecimals(previous.total, change);
  if (!isWithinAmountRange(total)) {
    throw invalidArgument(
      `This event would make the user's total ${total}, outside the supported range of -${MAX_AMOUNT} to ${MAX_AMOUNT}; nothing was recorded`,
    );
  }
  // The day is the user's local day at the event's moment, in the zone in force then.
  const day = localDate(event.at, zoneInForce(user, event.at));
  const daily = recordDailyChange(previous.daily ?? {}, day, change);
  const activity = recordDailyChange(user.activity ?? {}, day, "1");
  const counted: UserState = { ...user, metrics: { ...user.metrics, [event.metricId]: { total, daily } }, activity };
  const trigger = { event: { metricId: event.metricId, value: event.value, attributes: event.attributes, totalAfter: total }, userCreated };
  const { state: next, reactions } = react(counted, trigger, config, event.at);
  return { state: next, outcome: { eventId: event.eventId, metricId: event.metricId, total, reactions } };
}

/**
 * A streak computed with an earlier frequency is computed again for the tenant's before the event's
 * day is recorded (streak-frequency.ts), so that the event counts once, as itself.
 */
function followFrequency(user: UserState, config: EngineConfig, at: Date): UserState {
  const settings = effectiveStreakSettings(config.streak, user.preferences);
  if (!settings || !user.streak || user.streak.frequency === settings.frequency) return user;
  return { ...user, streak: followStreakFrequency(user.streak, settings, user.tzHistory, user.metrics, at) };
}
