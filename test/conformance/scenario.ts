// The conformance scenario through the TypeScript client (sdk/): sends scenario.json's events and
// reads the users' state back, as scenario.py and sdk/go/examples/conformance do in Python and Go.
// test/conformance.test.ts calls runScenario in process and compares the three clients' documents.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { toJson, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { createGrpcTransport } from "@connectrpc/connect-node";
import {
  createClient,
  GetUserLeaderboardResponseSchema,
  GetUserMetricResponseSchema,
  GetUserPointsResponseSchema,
  GetUserStreakResponseSchema,
  ListUserAchievementsResponseSchema,
  TrackMetricEventResponseSchema,
} from "../../sdk/src/index.js";

export interface Scenario {
  now: string;
  metric: string;
  pointsSystem: string;
  leaderboard: string;
  users: string[];
  events: Array<{ user: string; value: number; timestamp: string }>;
}

export const scenario: Scenario = JSON.parse(readFileSync(join(import.meta.dirname, "scenario.json"), "utf8"));

/** What every runner prints: the responses as protojson, and a summary read through the typed messages. */
export interface ConformanceDocument {
  tracked: unknown[];
  users: Record<string, { metric: unknown; points: unknown; streak: unknown; achievements: unknown; leaderboard: unknown }>;
  summary: Record<string, { metricTotal: number; pointsTotal: number; level: string; streakLength: number; achievements: string[]; rank: number; value: number }>;
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
  const document: ConformanceDocument = { tracked: [], users: {}, summary: {} };
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
