import { create, type JsonValue } from "@bufbuild/protobuf";
import type * as d from "../domain/points-config.js";
import { boostStatus } from "../domain/points-config.js";
import * as pa from "../../../gen/gamification/v1/points_admin_service_pb.js";
import type { PointsSystemCreation } from "../admin-points.js";
import { boostRoundings, enumMapping, pointsTriggerStatuses, pointsTriggerTypes } from "../../../transport/enum-mapping.js";
import { asObjectList, asString, readNullable } from "../../../transport/nullable-value.js";

/** Converts between the points configuration of the domain and the PointsAdminService messages. */

const timeUnits = enumMapping<d.TriggerTimeUnit, pa.PointsTriggerTimeUnit>({
  hours: pa.PointsTriggerTimeUnit.HOURS,
  days: pa.PointsTriggerTimeUnit.DAYS,
});
const boostStatuses = enumMapping<d.BoostStatus, pa.PointsBoostStatus>({
  scheduled: pa.PointsBoostStatus.SCHEDULED,
  active: pa.PointsBoostStatus.ACTIVE,
  finished: pa.PointsBoostStatus.FINISHED,
  archived: pa.PointsBoostStatus.ARCHIVED,
});
const systemStatuses = enumMapping<d.PointsSystemStatus, pa.PointsSystemStatus>({
  active: pa.PointsSystemStatus.ACTIVE,
  archived: pa.PointsSystemStatus.ARCHIVED,
});

// ---------------------------------------------------------------------------------------------
// Domain to proto

/** `nested` (create responses only) carries the items created with the system; boosts need `now` for their status. */
export function systemToProto(
  s: d.PointsSystemConfig,
  nested?: { levels: d.PointsLevelConfig[]; boosts: d.PointsBoostConfig[]; triggers: d.PointsTriggerConfig[]; now: Date },
): pa.AdminPointsSystem {
  return create(pa.AdminPointsSystemSchema, {
    id: s.id,
    name: s.name,
    key: s.key,
    description: s.description,
    status: systemStatuses.toProto(s.status),
    badge: badgeToProto(s.badge),
    maxPoints: s.maxPoints === null ? undefined : BigInt(s.maxPoints),
    levels: nested?.levels.map(levelToProto),
    boosts: nested?.boosts.map((b) => boostToProto(b, nested.now)),
    triggers: nested?.triggers.map(triggerToProto),
  });
}

export function levelToProto(l: d.PointsLevelConfig): pa.AdminPointsLevel {
  return create(pa.AdminPointsLevelSchema, {
    id: l.id,
    name: l.name,
    key: l.key,
    points: BigInt(l.points),
    description: l.description,
    badge: badgeToProto(l.badge),
  });
}

export function triggerToProto(t: d.PointsTriggerConfig): pa.AdminPointsTrigger {
  return create(pa.AdminPointsTriggerSchema, {
    id: t.id,
    type: pointsTriggerTypes.toProto(t.type),
    points: BigInt(t.points),
    status: pointsTriggerStatuses.toProto(t.status),
    userAttributes: t.userAttributes.map(filterToProto),
    metricId: t.metricId,
    metricThreshold: t.metricThreshold,
    eventAttributes: t.eventAttributes.map(filterToProto),
    achievementId: t.achievementId,
    streakLength: t.streakLength,
    timeUnit: t.timeUnit === undefined ? undefined : timeUnits.toProto(t.timeUnit),
    timeInterval: t.timeInterval,
    // A metric trigger's setting (one of another type stored with it before it was refused there
    // reads as what the engine does: false).
    blockIfOutOfPoints: t.type === "metric" && t.blockIfOutOfPoints,
  });
}

/** The status is derived from the dates on the UTC day of `now`. */
export function boostToProto(b: d.PointsBoostConfig, now: Date): pa.AdminPointsBoost {
  return create(pa.AdminPointsBoostSchema, {
    id: b.id,
    name: b.name,
    status: boostStatuses.toProto(boostStatus(b, now)),
    start: b.start,
    end: b.end ?? undefined,
    multiplier: b.multiplier,
    rounding: boostRoundings.toProto(b.rounding),
    userId: b.userId ?? undefined,
    userAttributes: b.userAttributes.map(filterToProto),
  });
}

function badgeToProto(badge: d.Badge | null): pa.PointsBadge | undefined {
  return badge ? create(pa.PointsBadgeSchema, { url: badge.url }) : undefined;
}

function filterToProto(f: d.AttributeFilterConfig): pa.PointsAttributeFilter {
  return create(pa.PointsAttributeFilterSchema, { attributeId: f.attributeId, attributeValue: f.attributeValue });
}

// ---------------------------------------------------------------------------------------------
// Proto to domain. `path` names the request item in messages (`systems[0]`).

export function systemCreationFromProto(s: pa.CreatePointsSystemItem): PointsSystemCreation {
  return {
    key: s.key,
    name: s.name,
    description: s.description,
    badge: s.badge && { url: s.badge.url },
    maxPoints: s.maxPoints === undefined ? undefined : Number(s.maxPoints),
    levels: s.levels.map(levelDraftFromProto),
    boosts: s.boosts.map(boostDraftFromProto),
    triggers: s.triggers.map(triggerDraftFromProto),
  };
}

export function systemChangesFromProto(s: pa.UpdatePointsSystemItem, path: string): d.PointsSystemChanges {
  return {
    name: s.name,
    description: s.description,
    badge: readNullable(s.badge, `${path}.badge`, 'an object {"url": ...}', parseBadge),
    maxPoints: readNullable(s.maxPoints, `${path}.maxPoints`, "an integer", (json) => (typeof json === "number" ? json : undefined)),
  };
}

export function levelDraftFromProto(l: pa.CreatePointsLevelItem): d.PointsLevelDraft {
  return { key: l.key, name: l.name, points: Number(l.points), description: l.description, badge: l.badge && { url: l.badge.url } };
}

export function levelChangesFromProto(l: pa.UpdatePointsLevelItem, path: string): d.PointsLevelChanges {
  return {
    name: l.name,
    points: l.points === undefined ? undefined : Number(l.points),
    description: l.description,
    badge: readNullable(l.badge, `${path}.badge`, 'an object {"url": ...}', parseBadge),
  };
}

export function triggerDraftFromProto(t: pa.CreatePointsTriggerItem): d.PointsTriggerDraft {
  return {
    type: pointsTriggerTypes.fromProto(t.type),
    points: Number(t.points),
    status: pointsTriggerStatuses.fromProto(t.status),
    userAttributes: t.userAttributes.map(filterFromProto),
    eventAttributes: t.eventAttributes.map(filterFromProto),
    blockIfOutOfPoints: t.blockIfOutOfPoints,
    ...triggerSettingsFromProto(t),
  };
}

export function triggerChangesFromProto(t: pa.UpdatePointsTriggerItem, path: string): d.PointsTriggerChanges {
  return {
    type: pointsTriggerTypes.fromProto(t.type),
    points: t.points === undefined ? undefined : Number(t.points),
    status: pointsTriggerStatuses.fromProto(t.status),
    userAttributes: readNullable(t.userAttributes, `${path}.userAttributes`, FILTERS_SHAPE, asFilters),
    eventAttributes: readNullable(t.eventAttributes, `${path}.eventAttributes`, FILTERS_SHAPE, asFilters),
    blockIfOutOfPoints: t.blockIfOutOfPoints,
    ...triggerSettingsFromProto(t),
  };
}

function triggerSettingsFromProto(t: pa.CreatePointsTriggerItem | pa.UpdatePointsTriggerItem): d.TriggerSettings {
  return {
    metricId: t.metricId,
    metricThreshold: t.metricThreshold,
    achievementId: t.achievementId,
    streakLength: t.streakLength,
    timeUnit: timeUnits.fromProto(t.timeUnit),
    timeInterval: t.timeInterval,
  };
}

export function boostDraftFromProto(b: pa.CreatePointsBoostItem): d.PointsBoostDraft {
  return {
    name: b.name,
    start: b.start,
    end: b.end,
    multiplier: b.multiplier,
    rounding: boostRoundings.fromProto(b.rounding),
    userId: b.userId,
    userAttributes: b.userAttributes.map(filterFromProto),
  };
}

export function boostChangesFromProto(b: pa.UpdatePointsBoostItem, path: string): d.PointsBoostChanges {
  return {
    name: b.name,
    start: b.start,
    end: readNullable(b.end, `${path}.end`, "a date (YYYY-MM-DD)", asString),
    multiplier: b.multiplier,
    rounding: boostRoundings.fromProto(b.rounding),
    userAttributes: readNullable(b.userAttributes, `${path}.userAttributes`, FILTERS_SHAPE, asFilters),
    archived: b.archived,
  };
}

function filterFromProto(f: pa.PointsAttributeFilter): d.AttributeFilterConfig {
  return { attributeId: f.attributeId, attributeValue: f.attributeValue };
}

const FILTERS_SHAPE = 'an array of {"attributeId": string, "attributeValue": string}';
const asFilters = asObjectList(["attributeId", "attributeValue"] as const);

/** A badge is an object with exactly a string `url`. */
function parseBadge(json: JsonValue): d.Badge | undefined {
  const [badge] = asObjectList(["url"] as const)([json]) ?? [];
  return badge;
}
