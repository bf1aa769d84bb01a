import { randomUUID } from "node:crypto";
import { findUnknownKeys, invalidAttributeKeysMessage } from "../domain/attribute.js";
import { DomainError, invalidArgument, notFound } from "../domain/errors.js";
import { applyEvent, validateEvent, type EventOutcome, type MetricEvent } from "../domain/event.js";
import { createUserState, type UserUpsert } from "../domain/user.js";
import { findUser, saveUser } from "../store/users.js";
import type { ServiceContext } from "./context.js";

export interface EventInput {
  metricKey: string;
  user: UserUpsert;
  value: number;
  attributes: Record<string, string>;
}

/** How often a version conflict (another instance wrote the user meanwhile) is retried. */
const MAX_ATTEMPTS = 10;

/**
 * Records one metric event for a user in a tenant: resolves the metric, then loads, applies and
 * writes the user's state under the user's lock, with a version check so that writers on other
 * instances never overwrite each other (a conflict reloads and applies again).
 */
export async function recordEvent(ctx: ServiceContext, tenantId: string, input: EventInput): Promise<EventOutcome> {
  const metric = await ctx.config.metricByKey(tenantId, input.metricKey);
  if (!metric) throw notFound(`Metric with key "${input.metricKey}" not found`);
  await checkAttributeKeys(ctx, tenantId, input);
  const event: MetricEvent = {
    eventId: randomUUID(),
    metricId: metric.id,
    user: input.user,
    value: input.value,
    attributes: input.attributes,
  };
  validateEvent(event);
  return ctx.userLocks.run(`${tenantId}/${input.user.id}`, async () => {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const now = ctx.now();
      const stored = await findUser(ctx.database.collections.users, tenantId, input.user.id);
      const { state, outcome } = applyEvent(stored?.state ?? createUserState(input.user.id, now), event, now);
      if (await saveUser(ctx.database.collections.users, tenantId, state, stored?.version ?? 0)) return outcome;
    }
    throw new DomainError("conflict", "The user was modified concurrently too many times; retry the request");
  });
}

/** Only attributes created through the Admin API may be sent, on the event and on the user. */
async function checkAttributeKeys(ctx: ServiceContext, tenantId: string, input: EventInput): Promise<void> {
  const [eventKeys, userKeys] = await Promise.all([ctx.config.attributeKeys(tenantId, "event"), ctx.config.attributeKeys(tenantId, "user")]);
  const invalid = [...findUnknownKeys(input.attributes, eventKeys), ...findUnknownKeys(input.user.attributes, userKeys)];
  if (invalid.length > 0) throw invalidArgument(invalidAttributeKeysMessage(invalid));
}
