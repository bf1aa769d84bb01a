import { create, toJson, type JsonObject } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { CreateMetricsRequestSchema } from "../gen/gamification/v1/admin_service_pb.js";
import { TrackMetricEventResponseSchema, UpdateUserRequestSchema } from "../gen/gamification/v1/application_service_pb.js";
import { PointsChangeSchema, PointsTriggerSchema } from "../gen/gamification/v1/points_pb.js";
import { fromRestJson, toRestJson } from "./rest-json.js";

function render(schema: Parameters<typeof toRestJson>[0], message: any): JsonObject {
  return toRestJson(schema, toJson(schema, message, { alwaysEmitImplicit: true }) as JsonObject);
}

describe("toRestJson", () => {
  it("writes null for unset fields with presence and leaves out omit_empty fields", () => {
    const json = render(TrackMetricEventResponseSchema, create(TrackMetricEventResponseSchema, { metricId: "m", eventId: "e", total: 1.5 }));
    expect(json).toEqual({ metricId: "m", eventId: "e", total: 1.5, achievements: [], currentStreak: null, points: {}, leaderboards: {} });
  });

  it("writes int64 as numbers, nested messages in reference shape, and omit_empty fields when set", () => {
    const json = render(
      PointsChangeSchema,
      create(PointsChangeSchema, {
        id: "p",
        key: "xp",
        name: "XP",
        total: 10n,
        added: 10n,
        maxPoints: 100n,
        level: { id: "l", key: "bronze", name: "Bronze", points: 0n },
        levelChanged: true,
      }),
    );
    expect(json).toEqual({
      id: "p",
      key: "xp",
      name: "XP",
      description: null,
      badgeUrl: null,
      maxPoints: 100,
      total: 10,
      level: { id: "l", key: "bronze", name: "Bronze", description: "", badgeUrl: null, points: 0 },
      added: 10,
      awards: [],
    });
  });

  it("writes a present_with field only with its companion, as null or [] when unset, and never a hidden one", () => {
    const change = (fields: object) => render(PointsChangeSchema, create(PointsChangeSchema, { id: "p", key: "xp", name: "XP", ...fields }));
    expect(change({ levelChanged: true })).toMatchObject({ level: null });
    expect(change({ level: { key: "bronze" } })).not.toHaveProperty("level");
    expect(change({ levelChanged: true })).not.toHaveProperty("levelChanged");
    const trigger = (fields: object) => render(PointsTriggerSchema, create(PointsTriggerSchema, { id: "t", points: 1n, ...fields }));
    expect(trigger({ metricId: "m" })).toMatchObject({ eventAttributes: [] });
    expect(trigger({})).not.toHaveProperty("eventAttributes");
  });

  it("writes enums as lower-case short names", () => {
    const json = render(TrackMetricEventResponseSchema, create(TrackMetricEventResponseSchema, { currentStreak: { length: 2, frequency: 2 } }));
    expect((json.currentStreak as JsonObject).frequency).toBe("weekly");
  });
});

describe("fromRestJson", () => {
  it("maps lower-case enum names to proto names inside arrays", () => {
    expect(fromRestJson(CreateMetricsRequestSchema, { metrics: [{ key: "k", unitType: "currency" }] })).toEqual({
      metrics: [{ key: "k", unitType: "METRIC_UNIT_TYPE_CURRENCY" }],
    });
  });

  it("reads null or [] for a clear_with list as its clearing flag", () => {
    for (const deviceTokens of [null, []]) {
      expect(fromRestJson(UpdateUserRequestSchema, { id: "u", user: { deviceTokens, name: "N" } })).toEqual({
        id: "u",
        user: { clearDeviceTokens: true, name: "N" },
      });
    }
    expect(fromRestJson(UpdateUserRequestSchema, { user: { deviceTokens: ["t"] } })).toEqual({ user: { deviceTokens: ["t"] } });
  });

  it("refuses an unknown enum value naming the field and the allowed values", () => {
    expect(() => fromRestJson(CreateMetricsRequestSchema, { metrics: [{ unitType: "miles" }] })).toThrow(
      'metrics[0].unitType: "miles" is not one of "number", "currency"',
    );
  });
});
