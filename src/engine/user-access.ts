import { findUnknownKeys, invalidAttributeKeysMessage } from "./domain/attribute.js";
import { DomainError, invalidArgument, notFound } from "./domain/errors.js";
import { summarizeChanges, localDate, type Aggregation } from "./domain/history.js";
import type { MetricConfig } from "../features/metrics/domain/metric.js";
import { checkUserUpsert, upsertUser, withAttributesInForce, type UserState, type UserUpsert } from "./domain/user.js";
import { eventsOf, newUserState, react } from "./domain/reactions.js";
import { contributionOf } from "../features/leaderboards/domain/leaderboard-entries.js";
import { findUser, type VersionedUser } from "./store/user-documents.js";
import { withPagedItems } from "./store/user-pages.js";
import { oldestKeptRankDate } from "./user-commit.js";
import { trimRankHistory } from "./domain/retention.js";
import { loadEngineConfig } from "./engine-config.js";
import type { ServiceContext } from "./context.js";
import { applyUserChange, changeUserState } from "./user-state.js";
import { dueWorkFirst } from "../workers/due-work.js";

/** How a user write treats a user that does or does not exist yet. */
export type UserWriteMode = "create" | "identify" | "update";

/**
 * Creates, identifies (creates or updates) or updates a user with the fields sent. Attribute keys
 * must be user attributes of the tenant; the time zone must be an IANA zone.
 */
export async function writeUser(ctx: ServiceContext, tenantId: string, mode: UserWriteMode, upsert: UserUpsert): Promise<UserState> {
  await checkUserFields(ctx, tenantId, upsert);
  const engine = await loadEngineConfig(ctx, tenantId);
  return changeUserState(
    ctx,
    tenantId,
    upsert.id,
    async (stored, now) => {
      if (stored && mode === "create") {
        throw new DomainError("unprocessable", `User "${upsert.id}" already exists; identify it with PUT /v1/users/${upsert.id} to update it`);
      }
      if (!stored && mode === "update") throw notFound(`User "${upsert.id}" not found`);
      const next = upsertUser(stored?.state ?? newUserState(upsert.id, now, engine), upsert, now);
      // An update may move the user's due time (a new time zone); a first identification may award
      // points (user-creation triggers), which leaderboards may rank.
      const created = stored ? null : react(next, { userCreated: true }, engine, now);
      const { state } = await applyUserChange(ctx, tenantId, engine, {
        state: created?.state ?? next,
        events: created ? eventsOf(created.reactions) : {},
        contribution: created ? contributionOf(undefined, created.reactions.points, undefined) : {},
        at: now,
      });
      return { write: state, result: state };
    },
    { catchUp: dueWorkFirst(ctx, tenantId, engine) },
  );
}

/**
 * Refuses user fields that cannot be written (400): a time zone that is not an IANA zone, a bad
 * `signUpDate`, attribute keys that are not user attributes of the tenant. Every user write checks
 * them first (a user write, an API achievement's user).
 */
export async function checkUserFields(ctx: ServiceContext, tenantId: string, upsert: UserUpsert): Promise<void> {
  const problem = checkUserUpsert(upsert);
  if (problem) throw invalidArgument(problem);
  await checkAttributeKeys(ctx, tenantId, { user: upsert.attributes });
}

/**
 * Refuses attribute keys the tenant has not created through the Admin API (400 listing them all,
 * event keys first): only those may be sent on events, on users and in user filters.
 */
export async function checkAttributeKeys(
  ctx: ServiceContext,
  tenantId: string,
  values: { event?: Record<string, string>; user?: Record<string, string> },
): Promise<void> {
  const [eventKeys, userKeys] = await Promise.all([
    values.event ? ctx.config.attributes(tenantId, "event") : new Map<string, string>(),
    values.user ? ctx.config.attributes(tenantId, "user") : new Map<string, string>(),
  ]);
  const invalid = [...findUnknownKeys(values.event, eventKeys), ...findUnknownKeys(values.user, userKeys)];
  if (invalid.length > 0) throw invalidArgument(invalidAttributeKeysMessage(invalid));
}

/**
 * A user's state with the older items of its paged lists (engine/store/user-pages.ts
 * `withPagedItems`) for reads that show more than the recent ones; `only`: the lists needed
 * (`pagedListKey`). Rank history older than the retention is left out, as the next write drops it.
 */
export async function withOlderItems(ctx: ServiceContext, tenantId: string, user: VersionedUser, only?: readonly string[]): Promise<UserState> {
  const state = await withPagedItems(ctx.database.collections.userPages, tenantId, user, only);
  const oldest = oldestKeptRankDate(ctx, ctx.now());
  return oldest === null || state === user.state ? state : { ...state, leaderboards: trimRankHistory(state.leaderboards, oldest) };
}

/** A user's state, every paged list whole (`withOlderItems`). */
export async function readWholeUser(ctx: ServiceContext, tenantId: string, userId: string): Promise<UserState> {
  const found = await findUser(ctx.database.collections.users, tenantId, userId);
  if (!found) throw notFound(`User "${userId}" not found`);
  return withOlderItems(ctx, tenantId, found);
}

/**
 * A user's state for reads: without the values of attributes deleted since they were set (not
 * theirs any more: their next write drops them from the document).
 */
export async function readUser(ctx: ServiceContext, tenantId: string, userId: string): Promise<UserState> {
  const [found, userAttributes] = await Promise.all([findUser(ctx.database.collections.users, tenantId, userId), ctx.config.attributes(tenantId, "user")]);
  if (!found) throw notFound(`User "${userId}" not found`);
  return withAttributesInForce(found.state, userAttributes);
}

/** The tenant's metric with this key, or a not-found error naming the key. */
export async function findMetricByKeyOrFail(ctx: ServiceContext, tenantId: string, key: string): Promise<MetricConfig> {
  const metric = await ctx.config.metricByKey(tenantId, key);
  if (!metric) throw notFound(`Metric with key "${key}" not found`);
  return metric;
}

/** A user's metric changes per period, in the user's time zone. */
export async function summarizeUserMetric(
  ctx: ServiceContext,
  tenantId: string,
  userId: string,
  key: string,
  aggregation: Aggregation,
  range: { start: string; end: string },
) {
  const [user, metric] = await Promise.all([readUser(ctx, tenantId, userId), findMetricByKeyOrFail(ctx, tenantId, key)]);
  const state = user.metrics[metric.id] ?? { total: "0", daily: {} };
  return summarizeChanges(state.daily, state.total, aggregation, range.start, range.end, localDate(ctx.now(), user.tz));
}
