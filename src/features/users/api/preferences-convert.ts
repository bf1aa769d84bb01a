import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { ListValueSchema, ValueSchema } from "@bufbuild/protobuf/wkt";
import * as app from "../../../gen/gamification/v1/application_service_pb.js";
import { isOptedOutOfLeaderboards, NOTIFICATION_KINDS, type NotificationKind } from "../domain/preferences.js";
import type { PreferencesUpdate, PreferencesView } from "../user-preferences.js";
import { clientModes, daysOffOf } from "../../streaks/api/streak-admin-service.js";

/** Notification kinds by their proto field (`achievement_completed` is `achievementCompleted` in the generated code). */
const FIELDS: Record<NotificationKind, "achievementCompleted" | "recap" | "reactivation" | "streakReminder"> = {
  achievement_completed: "achievementCompleted",
  recap: "recap",
  reactivation: "reactivation",
  streak_reminder: "streakReminder",
};

const clientModeNames = { all: "AND", any: "OR" } as const;

/** A user's preferences in the reference's shape (plus `leaderboards`): kinds never set are null, streak metric overrides by key. */
export function preferencesToProto({ preferences, keys }: PreferencesView): app.UserPreferences {
  const notifications = create(app.NotificationPreferencesSchema);
  for (const kind of NOTIFICATION_KINDS) {
    const channels = preferences.notifications[kind];
    if (channels) notifications[FIELDS[kind]] = fromJson(ListValueSchema, channels);
  }
  const s = preferences.streak;
  return create(app.UserPreferencesSchema, {
    notifications,
    streak: s
      ? {
          enabled: s.enabled,
          evaluationMode: s.evaluationMode && clientModeNames[s.evaluationMode],
          metrics: (s.metrics ?? []).map((m) => ({ key: keys.get(m.metricId) ?? m.metricId, threshold: m.threshold })),
          daysOff: s.daysOff && fromJson(ListValueSchema, s.daysOff),
        }
      : undefined,
    leaderboards: { optOut: isOptedOutOfLeaderboards(preferences) },
  });
}

/** An update: the kinds sent (JSON arrays, checked by the domain), the streak preferences when sent. */
export function preferencesUpdateFromProto(p: app.UserPreferences | undefined): PreferencesUpdate {
  const update: PreferencesUpdate = {};
  if (p?.notifications) {
    const notifications: Record<string, unknown[]> = {};
    for (const kind of NOTIFICATION_KINDS) {
      const list = p.notifications[FIELDS[kind]];
      if (list) notifications[kind] = list.values.map((value) => toJson(ValueSchema, value));
    }
    update.notifications = notifications;
  }
  if (p?.streak) {
    const s = p.streak;
    update.streak = {
      ...(s.enabled !== undefined && { enabled: s.enabled }),
      ...(s.evaluationMode !== undefined && { evaluationMode: clientModes[s.evaluationMode] }),
      ...(s.metrics.length > 0 && { metrics: s.metrics.map((m) => ({ key: m.key, threshold: m.threshold })) }),
      ...(s.daysOff !== undefined && { daysOff: daysOffOf(s.daysOff, "streak.daysOff") }),
    };
  }
  if (p?.leaderboards?.optOut !== undefined) update.leaderboards = { optOut: p.leaderboards.optOut };
  return update;
}
