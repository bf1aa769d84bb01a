import type { AchievementTrigger } from "../features/achievements/domain/achievement-config.js";
import type { BoostRounding, TriggerType } from "../features/points/domain/points-config.js";
import type { StreakFrequency } from "../features/streaks/domain/streak-config.js";
import { AchievementTrigger as ProtoAchievementTrigger } from "../gen/gamification/v1/achievement_pb.js";
import {
  BoostRounding as ProtoBoostRounding,
  PointsTriggerStatus as ProtoTriggerStatus,
  PointsTriggerType as ProtoTriggerType,
} from "../gen/gamification/v1/points_pb.js";
import { StreakFrequency as ProtoStreakFrequency } from "../gen/gamification/v1/streak_pb.js";

/**
 * The one way a domain string union and a generated protobuf enum are converted: a table from
 * every domain value to its enum value (a `Record`, so a domain value without one does not
 * compile). The enum's zero value (`UNSPECIFIED`) and any value not listed read as `undefined`:
 * "not given".
 */
export function enumMapping<D extends string, P extends number>(table: Readonly<Record<D, P>>) {
  const entries = Object.entries(table) as Array<[D, P]>;
  return {
    toProto(value: D): P {
      if (!Object.hasOwn(table, value)) throw new Error(`no protobuf value for "${value}"`);
      return table[value];
    },
    fromProto(value: P | undefined): D | undefined {
      return entries.find(([, proto]) => proto === value)?.[0];
    },
  };
}

// The mappings more than one adapter uses; the others live beside their only user.

export const achievementTriggers = enumMapping<AchievementTrigger, ProtoAchievementTrigger>({
  metric: ProtoAchievementTrigger.METRIC,
  streak: ProtoAchievementTrigger.STREAK,
  api: ProtoAchievementTrigger.API,
  achievement: ProtoAchievementTrigger.ACHIEVEMENT,
});

export const pointsTriggerTypes = enumMapping<TriggerType, ProtoTriggerType>({
  metric: ProtoTriggerType.METRIC,
  achievement: ProtoTriggerType.ACHIEVEMENT,
  streak: ProtoTriggerType.STREAK,
  time: ProtoTriggerType.TIME,
  user_creation: ProtoTriggerType.USER_CREATION,
});

// `archived` exists in the shared enum; the domain refuses it as an Admin API status.
export const pointsTriggerStatuses = enumMapping<"active" | "inactive" | "archived", ProtoTriggerStatus>({
  active: ProtoTriggerStatus.ACTIVE,
  inactive: ProtoTriggerStatus.INACTIVE,
  archived: ProtoTriggerStatus.ARCHIVED,
});

export const boostRoundings = enumMapping<BoostRounding, ProtoBoostRounding>({
  down: ProtoBoostRounding.DOWN,
  up: ProtoBoostRounding.UP,
  nearest: ProtoBoostRounding.NEAREST,
});

export const streakFrequencies = enumMapping<StreakFrequency, ProtoStreakFrequency>({
  daily: ProtoStreakFrequency.DAILY,
  weekly: ProtoStreakFrequency.WEEKLY,
  monthly: ProtoStreakFrequency.MONTHLY,
});
