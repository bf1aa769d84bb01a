/**
 * What an award shows, whoever renders it: the Application API (transport/convert.ts, as protobuf) and
 * webhook bodies (features/webhooks/domain/webhooks.ts, as JSON) both spread these, so which fields each trigger
 * type shows is decided here once and the renderers only convert types.
 */
import type { AchievementConfig, AttributeFilter } from "../../features/achievements/domain/achievement-config.js";
import type { PointsAwardBoost, PointsAwardTrigger } from "../../features/points/domain/points.js";

/** The fields of an achievement's own trigger type; the others are left out. */
export interface AchievementTriggerFields {
  streakLength?: number;
  achievementIds?: string[];
  metricId?: string;
  metricValue?: number;
  metricName?: string;
  eventAttributes?: AttributeFilter[];
}

/** An achievement's trigger fields: a streak's length, a composite's prerequisites, a metric's target, name and event filters. */
export function achievementTriggerFields(a: AchievementConfig, metricName: (metricId: string) => string | undefined): AchievementTriggerFields {
  switch (a.trigger) {
    case "streak":
      return a.streakLength === null ? {} : { streakLength: a.streakLength };
    case "achievement":
      return { achievementIds: a.achievementIds };
    case "metric": {
      const name = metricName(a.metricId ?? "");
      return {
        ...(a.metricId !== null && { metricId: a.metricId }),
        ...(a.metricValue !== null && { metricValue: a.metricValue }),
        ...(name !== undefined && { metricName: name }),
        eventAttributes: a.eventAttributes,
      };
    }
    default:
      return {};
  }
}

/** The optional fields of a points award's trigger, as the reference names them. */
export type AwardTriggerFields = Pick<
  PointsAwardTrigger,
  "metricId" | "metricName" | "metricThreshold" | "achievementId" | "achievementName" | "streakLengthThreshold" | "timeUnit" | "timeInterval"
>;

/** The trigger fields an award shows: those its trigger type has (the snapshot taken when it fired holds only those). */
export function awardTriggerFields(t: PointsAwardTrigger): AwardTriggerFields {
  const all: AwardTriggerFields = {
    metricId: t.metricId,
    metricName: t.metricName,
    metricThreshold: t.metricThreshold,
    achievementId: t.achievementId,
    achievementName: t.achievementName,
    streakLengthThreshold: t.streakLengthThreshold,
    timeUnit: t.timeUnit,
    timeInterval: t.timeInterval,
  };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
}

/** An award's trigger status as shown: it fired, so it was active (awards recorded before the status was kept read as active). */
export function awardTriggerStatus(t: PointsAwardTrigger): "active" | "inactive" {
  return t.status === "inactive" ? "inactive" : "active";
}

/** A boost as an award shows it (a type, not an interface, so it is JSON as it is). */
export type AwardBoostView = {
  id: string;
  name: string;
  status: "active";
  start: string;
  end: string | null;
  multiplier: number;
  rounding: PointsAwardBoost["rounding"];
};

/** A boost that multiplied an award, as the award shows it: it applied, so it reads as active. */
export function awardBoostView(b: PointsAwardBoost): AwardBoostView {
  return { id: b.id, name: b.name, status: "active", start: b.start, end: b.end, multiplier: b.multiplier, rounding: b.rounding };
}
