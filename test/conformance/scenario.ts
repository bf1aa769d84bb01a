// The conformance scenario through the TypeScript client (sdk/): configures the tenant through the
// Admin services as scenario.json says, sends its events and reads the users' state back, as
// scenario.py and sdk/go/examples/conformance do in Python and Go.
// test/transport/conformance.test.ts calls runScenario in process and compares the three clients' documents.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fromJson, toJson, type DescMessage, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createGrpcTransport } from "@connectrpc/connect-node";
import {
  createClient,
  CreateAchievementsRequestSchema,
  CreateAchievementsResponseSchema,
  CreateLeaderboardsRequestSchema,
  CreateLeaderboardsResponseSchema,
  CreateMetricsRequestSchema,
  CreateMetricsResponseSchema,
  CreatePointsSystemsRequestSchema,
  CreatePointsSystemsResponseSchema,
  GetUserLeaderboardResponseSchema,
  GetUserMetricResponseSchema,
  GetUserPointsResponseSchema,
  GetUserStreakResponseSchema,
  ListUserAchievementsResponseSchema,
  TrackMetricEventResponseSchema,
  UpdateStreakSettingsRequestSchema,
  UpdateStreakSettingsResponseSchema,
} from "../../sdk/src/index.js";

export interface Scenario {
  now: string;
  metric: string;
  pointsSystem: string;
  leaderboard: string;
  users: string[];
  /** The Admin requests in protojson; "$metric" stands for the metric's ID. */
  configuration: Record<"metrics" | "achievements" | "pointsSystems" | "leaderboards" | "streakSettings", JsonValue>;
  events: Array<{ user: string; value: number; timestamp: string }>;
}

export const scenario: Scenario = JSON.parse(readFileSync(join(import.meta.dirname, "scenario.json"), "utf8"));

/** What every runner prints: the responses as protojson, and a summary read through the typed messages. */
export interface ConformanceDocument {
  configured: Record<string, unknown>;
  tracked: unknown[];
  users: Record<string, { metric: unknown; points: unknown; streak: unknown; achievements: unknown; leaderboard: unknown }>;
  summary: Record<
    string,
    { metricTotal: number; pointsTotal: number; level: string; streakLength: number; achievements: string[]; rank: number; value: number }
  >;
}

export interface RunnerSettings {
  /** GAMIFICATION_URL */
  baseUrl: string;
  /** GAMIFICATION_API_KEY (an admin key: the events carry timestamps) */
  apiKey: string;
  /** GAMIFICATION_TENANT */
  tenantId: string;
  /** GAMIFICATION_PROTOCOL: connect (JSON), grpc or grpc-web */
  protocol: "connect" | "grpc" | "grpc-web";
}

const json = <Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>) => toJson(schema, message);

export async function runScenario(settings: RunnerSettings): Promise<ConformanceDocument> {
  const client = createClient({
    baseUrl: settings.baseUrl,
    apiKey: settings.apiKey,
    tenantId: settings.tenantId,
    protocol: settings.protocol === "grpc-web" ? "grpc-web" : "connect",
    transport: settings.protocol === "grpc" ? (interceptors) => createGrpcTransport({ baseUrl: settings.baseUrl, interceptors }) : undefined,
  });
  const document: ConformanceDocument = { configured: {}, tracked: [], users: {}, summary: {} };

  // The tenant's configuration, through the Admin services.
  const config = scenario.configuration;
  const metrics = await client.admin.createMetrics(fromJson(CreateMetricsRequestSchema, config.metrics));
  const metricId = metrics.created[0]?.id;
  if (metricId === undefined) throw new Error(`the metric was not created: ${JSON.stringify(json(CreateMetricsResponseSchema, metrics))}`);
  const withMetric = (request: JsonValue): JsonValue => JSON.parse(JSON.stringify(request).replaceAll('"$metric"', JSON.stringify(metricId)));
  document.configured = {
    metrics: json(CreateMetricsResponseSchema, metrics),
    achievements: json(
      CreateAchievementsResponseSchema,
      await client.achievements.createAchievements(fromJson(CreateAchievementsRequestSchema, withMetric(config.achievements))),
    ),
    pointsSystems: json(
      CreatePointsSystemsResponseSchema,
      await client.points.createPointsSystems(fromJson(CreatePointsSystemsRequestSchema, withMetric(config.pointsSystems))),
    ),
    leaderboards: json(
      CreateLeaderboardsResponseSchema,
      await client.leaderboards.createLeaderboards(fromJson(CreateLeaderboardsRequestSchema, withMetric(config.leaderboards))),
    ),
    streakSettings: json(
      UpdateStreakSettingsResponseSchema,
      await client.streaks.updateStreakSettings(fromJson(UpdateStreakSettingsRequestSchema, withMetric(config.streakSettings))),
    ),
  };

  // The events, in order, then each user's state.
  for (const event of scenario.events) {
    const response = await client.application.trackMetricEvent({
      key: scenario.metric,
      user: { id: event.user },
      value: event.value,
      timestamp: timestampFromDate(new Date(event.timestamp)),
    });
    document.tracked.push(json(TrackMetricEventResponseSchema, response));
  }
  for (const id of scenario.users) {
    const metric = await client.application.getUserMetric({ id, key: scenario.metric });
    const points = await client.pointsReads.getUserPoints({ id, key: scenario.pointsSystem });
    const streak = await client.application.getUserStreak({ id });
    const achievements = await client.application.listUserAchievements({ id });
    const leaderboard = await client.leaderboardReads.getUserLeaderboard({ id, key: scenario.leaderboard });
    document.users[id] = {
      metric: json(GetUserMetricResponseSchema, metric),
      points: json(GetUserPointsResponseSchema, points),
      streak: json(GetUserStreakResponseSchema, streak),
      achievements: json(ListUserAchievementsResponseSchema, achievements),
      leaderboard: json(GetUserLeaderboardResponseSchema, leaderboard),
    };
    document.summary[id] = {
      metricTotal: metric.metric?.current ?? 0,
      pointsTotal: Number(points.points?.total ?? 0n),
      level: points.points?.level?.key ?? "",
      streakLength: streak.streak?.length ?? 0,
      achievements: achievements.achievements.map((a) => a.key ?? ""),
      rank: leaderboard.leaderboard?.rank ?? 0,
      value: leaderboard.leaderboard?.value ?? 0,
    };
  }
  return document;
}
