import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { BulkIssue } from "../engine/domain/bulk.js";
import { invalidArgument } from "../engine/domain/errors.js";
import type { AchievementView } from "../features/achievements/achievement-reads.js";
import { achievementTriggerFields, awardBoostView, awardTriggerFields, awardTriggerStatus } from "../engine/domain/award-views.js";
import type { PointsAward, PointsChange, PointsConfig } from "../features/points/domain/points.js";
import type { PointsLevelConfig } from "../features/points/domain/points-config.js";
import type { StreakView } from "../features/streaks/domain/streak.js";
import type { MetricConfig, UnitType } from "../features/metrics/domain/metric.js";
import type { TenantConfig } from "../features/account/domain/tenant.js";
import type { UserState, UserUpsert } from "../engine/domain/user.js";
import * as achievementPb from "../gen/gamification/v1/achievement_pb.js";
import * as common from "../gen/gamification/v1/common_pb.js";
import * as pointsPb from "../gen/gamification/v1/points_pb.js";
import * as streakPb from "../gen/gamification/v1/streak_pb.js";
import * as metric from "../gen/gamification/v1/metric_pb.js";
import * as tenant from "../gen/gamification/v1/tenant_pb.js";
import * as user from "../gen/gamification/v1/user_pb.js";
import { achievementTriggers, boostRoundings, enumMapping, pointsTriggerStatuses, pointsTriggerTypes, streakFrequencies } from "./enum-mapping.js";

/** Converts between domain values and generated protobuf messages; the only place the two meet. */

const issueSeverities = enumMapping<BulkIssue["severity"], common.IssueSeverity>({ error: common.IssueSeverity.ERROR, warning: common.IssueSeverity.WARNING });

export function issueToProto(issue: BulkIssue): common.AdminIssue {
  return create(common.AdminIssueSchema, {
    index: issue.index,
    id: issue.id,
    userId: issue.userId,
    severity: issueSeverities.toProto(issue.severity),
    message: issue.message,
    level: issue.severity,
    reason: issue.message,
  });
}

const unitTypes = enumMapping<UnitType, metric.MetricUnitType>({ number: metric.MetricUnitType.NUMBER, currency: metric.MetricUnitType.CURRENCY });

export function unitTypeFromProto(value: metric.MetricUnitType | undefined): UnitType | undefined {
  if (value === undefined || value === metric.MetricUnitType.UNSPECIFIED) return undefined;
  // A value this build does not know reads as a number, as it always has.
  return unitTypes.fromProto(value) ?? "number";
}

export function metricToProto(m: MetricConfig): metric.Metric {
  return create(metric.MetricSchema, {
    id: m.id,
    key: m.key,
    name: m.name,
    unitType: unitTypes.toProto(m.unitType),
    units: m.units,
  });
}

const tenantStatuses = enumMapping<TenantConfig["status"], tenant.TenantStatus>({ active: tenant.TenantStatus.ACTIVE, archived: tenant.TenantStatus.ARCHIVED });

export function tenantToProto(t: TenantConfig): tenant.Tenant {
  return create(tenant.TenantSchema, {
    id: t.id,
    customerId: t.customerId,
    name: t.name,
    status: tenantStatuses.toProto(t.status),
    created: timestampFromDate(t.created),
    updated: timestampFromDate(t.updated),
  });
}

/**
 * The user fields sent (an UpsertedUser, or UserFields plus the ID from the path). Device tokens: a
 * list replaces the stored ones, `clearDeviceTokens` removes them (an empty list), neither keeps them;
 * `clearTz`, `clearEmail` and `clearName` remove their field (null).
 */
export function userUpsertFromProto(id: string, u: Partial<Omit<user.UpsertedUser, "$typeName">> = {}): UserUpsert {
  // A body may name the user (the reference's own PATCH example does), but never as someone else.
  if (u.id !== undefined && u.id !== id)
    throw invalidArgument(`Invalid request: the body's id ${JSON.stringify(u.id)} is not the user's ID in the path, ${JSON.stringify(id)}`);
  // A field and the flag that clears it contradict each other.
  for (const [field, flag, clear, sent] of [
    ["deviceTokens", "clearDeviceTokens", u.clearDeviceTokens, u.deviceTokens?.length ? u.deviceTokens : undefined],
    ["tz", "clearTz", u.clearTz, u.tz],
    ["email", "clearEmail", u.clearEmail, u.email],
    ["name", "clearName", u.clearName, u.name],
  ] as const) {
    if (clear && sent !== undefined) throw invalidArgument(`Invalid request: send ${field} or ${flag}, not both`);
  }
  return {
    id,
    email: u.clearEmail ? null : u.email,
    name: u.clearName ? null : u.name,
    tz: u.clearTz ? null : u.tz,
    deviceTokens: u.clearDeviceTokens ? [] : u.deviceTokens?.length ? u.deviceTokens : undefined,
    subscribeToEmails: u.subscribeToEmails,
    signUpDate: u.signUpDate,
    attributes: u.attributes && Object.keys(u.attributes).length > 0 ? u.attributes : undefined,
  };
}

export function userToProto(u: UserState): user.User {
  return create(user.UserSchema, {
    id: u.userId,
    email: u.email ?? undefined,
    name: u.name ?? undefined,
    tz: u.tz ?? undefined,
    deviceTokens: u.deviceTokens,
    subscribeToEmails: u.subscribeToEmails,
    attributes: u.attributes,
    control: u.control,
    created: timestampFromDate(u.created),
    updated: timestampFromDate(u.updated),
    signUpDate: u.signUpDate ?? undefined,
  });
}

/**
 * An achievement as the Application API shows it: the fields of its trigger only, the user's
 * completion time (null when incomplete) and, in lists, completions and rarity.
 */
export function achievementToProto(view: AchievementView, metricNames: ReadonlyMap<string, string>): achievementPb.Achievement {
  const a = view.achievement;
  const triggerFields = achievementTriggerFields(a, (id) => metricNames.get(id));
  return create(achievementPb.AchievementSchema, {
    id: a.id,
    name: a.name,
    trigger: achievementTriggers.toProto(a.trigger),
    description: a.description ?? undefined,
    badgeUrl: a.badgeUrl ?? undefined,
    key: a.key,
    ...triggerFields,
    achievementIds: triggerFields.achievementIds ?? [],
    userAttributes: a.userAttributes,
    eventAttributes: triggerFields.eventAttributes ?? [],
    achievedAt: view.completion ? timestampFromDate(view.completion.achievedAt) : undefined,
    completions: view.stats ? BigInt(view.stats.completions) : undefined,
    rarity: view.stats?.rarity,
  });
}

/** An award's time unit (the Application API's names). */
const awardTimeUnits = enumMapping<"hour" | "day", pointsPb.TimeUnit>({ hour: pointsPb.TimeUnit.HOUR, day: pointsPb.TimeUnit.DAY });

export function levelToProto(level: PointsLevelConfig): pointsPb.PointsLevel {
  return create(pointsPb.PointsLevelSchema, {
    id: level.id,
    key: level.key,
    name: level.name,
    description: level.description,
    badgeUrl: level.badge?.url,
    points: BigInt(level.points),
  });
}

export function awardToProto(award: PointsAward): pointsPb.PointsAward {
  const t = award.trigger;
  return create(pointsPb.PointsAwardSchema, {
    id: award.id,
    awarded: BigInt(award.awarded),
    date: timestampFromDate(award.date),
    total: BigInt(award.total),
    trigger: {
      id: t.id,
      type: pointsTriggerTypes.toProto(t.type),
      points: BigInt(t.points),
      ...awardTriggerFields(t),
      timeUnit: t.timeUnit === undefined ? undefined : awardTimeUnits.toProto(t.timeUnit),
      status: pointsTriggerStatuses.toProto(awardTriggerStatus(t)),
      userAttributes: t.userAttributes ?? [],
      eventAttributes: t.eventAttributes ?? [],
      created: t.created ? timestampFromDate(t.created) : undefined,
      updated: t.updated ? timestampFromDate(t.updated) : undefined,
    },
    boosts: award.boosts.map((b) => {
      const boost = awardBoostView(b);
      return create(pointsPb.PointsBoostSchema, { ...boost, end: boost.end ?? undefined, rounding: boostRoundings.toProto(boost.rounding) });
    }),
  });
}

/**
 * The `points` map of an event or achievement response: only systems this call changed, by key,
 * with `level` only when the change moved the user to another level.
 */
export function pointsChangesToProto(changes: readonly PointsChange[], config: PointsConfig): Record<string, pointsPb.PointsChange> {
  const out: Record<string, pointsPb.PointsChange> = {};
  for (const change of changes) {
    const system = config.systems.find((s) => s.system.id === change.systemId)?.system;
    if (!system) continue;
    out[change.systemKey] = create(pointsPb.PointsChangeSchema, {
      id: system.id,
      key: system.key,
      name: system.name,
      description: system.description || undefined,
      badgeUrl: system.badge?.url,
      maxPoints: system.maxPoints === null ? undefined : BigInt(system.maxPoints),
      total: BigInt(change.total),
      level: change.levelChanged?.next ? levelToProto(change.levelChanged.next) : undefined,
      levelChanged: change.levelChanged !== undefined,
      added: BigInt(change.added),
      awards: change.awards.map(awardToProto),
    });
  }
  return out;
}

/** The fields every streak shape shares (event response and read), as a plain init object. */
export function streakFields(view: StreakView) {
  return {
    length: view.length,
    frequency: streakFrequencies.toProto(view.frequency),
    started: view.started ?? undefined,
    periodStart: view.periodStart ?? undefined,
    periodEnd: view.periodEnd ?? undefined,
    expires: view.expires ?? undefined,
    freezes: view.freezes,
    maxFreezes: view.maxFreezes,
    freezeAutoEarnInterval: view.freezeAutoEarnInterval,
    freezeAutoEarnAmount: view.freezeAutoEarnAmount,
  };
}

/** The streak of an event response; `extended` is true when this event made the current period count. */
export function streakToProto(view: StreakView, extended: boolean): streakPb.Streak {
  return create(streakPb.StreakSchema, { ...streakFields(view), extended });
}
