import { createClient as createConnectClient, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import { AchievementAdminService } from "./gen/gamification/v1/achievement_admin_service_pb.js";
import { AdminService } from "./gen/gamification/v1/admin_service_pb.js";
import { ApplicationService } from "./gen/gamification/v1/application_service_pb.js";
import { LeaderboardAdminService } from "./gen/gamification/v1/leaderboard_admin_service_pb.js";
import { LeaderboardService } from "./gen/gamification/v1/leaderboard_service_pb.js";
import { PointsAdminService } from "./gen/gamification/v1/points_admin_service_pb.js";
import { PointsService } from "./gen/gamification/v1/points_service_pb.js";
import { StreakAdminService } from "./gen/gamification/v1/streak_admin_service_pb.js";
import { SettingsAdminService } from "./gen/gamification/v1/settings_admin_service_pb.js";
import { WebhookAdminService } from "./gen/gamification/v1/webhook_admin_service_pb.js";
import { PrivacyAdminService } from "./gen/gamification/v1/privacy_admin_service_pb.js";

export * from "./gen/gamification/v1/achievement_admin_service_pb.js";
export * from "./gen/gamification/v1/achievement_pb.js";
export * from "./gen/gamification/v1/admin_service_pb.js";
export * from "./gen/gamification/v1/application_service_pb.js";
export * from "./gen/gamification/v1/common_pb.js";
export * from "./gen/gamification/v1/leaderboard_admin_service_pb.js";
export * from "./gen/gamification/v1/leaderboard_pb.js";
export * from "./gen/gamification/v1/leaderboard_service_pb.js";
export * from "./gen/gamification/v1/metric_pb.js";
export * from "./gen/gamification/v1/points_admin_service_pb.js";
export * from "./gen/gamification/v1/points_service_pb.js";
export * from "./gen/gamification/v1/points_pb.js";
export * from "./gen/gamification/v1/streak_admin_service_pb.js";
export * from "./gen/gamification/v1/streak_pb.js";
export * from "./gen/gamification/v1/tenant_pb.js";
export * from "./gen/gamification/v1/user_pb.js";
export * from "./gen/gamification/v1/webhook_admin_service_pb.js";
export * from "./gen/gamification/v1/settings_admin_service_pb.js";

export interface ClientOptions {
  /** The service's base URL, e.g. `http://localhost:8080`. */
  baseUrl: string;
  /** An application key (one user) or an admin key. Use admin keys from server-side code only. */
  apiKey: string;
  /** Scopes every call to this tenant (your own identifier for it, the tenant's `customerId`). */
  tenantId?: string;
  /** Wire protocol: Connect (default; JSON unless `binary`) or gRPC-web. */
  protocol?: "connect" | "grpc-web";
  /** Use the binary protobuf encoding instead of JSON (Connect protocol). */
  binary?: boolean;
  /** Supply your own transport (e.g. gRPC over HTTP/2 from @connectrpc/connect-node); headers are still set. */
  transport?: (interceptors: Interceptor[]) => Transport;
}

export interface GamificationClient {
  /** Records events and reads user state. */
  application: Client<typeof ApplicationService>;
  /** Configures every feature; needs an admin key. */
  admin: Client<typeof AdminService>;
  /** Achievement configuration; needs an admin key. */
  achievements: Client<typeof AchievementAdminService>;
  /** Leaderboard configuration; needs an admin key. */
  leaderboards: Client<typeof LeaderboardAdminService>;
  /** Leaderboard reads: the live leaderboards, rankings of any run and group, a user's rank and history. */
  leaderboardReads: Client<typeof LeaderboardService>;
  /** Streak settings; needs an admin key. */
  streaks: Client<typeof StreakAdminService>;
  /** Points systems and their triggers, levels and boosts; needs an admin key. */
  points: Client<typeof PointsAdminService>;
  /** Points reads: a user's points, history and boosts; a system's triggers, boosts, levels and summaries. */
  pointsReads: Client<typeof PointsService>;
  /** Webhook endpoints, secrets, deliveries and redelivery; needs an admin key. */
  webhooks: Client<typeof WebhookAdminService>;
  /** Account settings (branding, experimentation, aggregation) and environments; needs an admin key. */
  settings: Client<typeof SettingsAdminService>;
  /** Privacy operations (admin key): erase and export a user. */
  privacy: Client<typeof PrivacyAdminService>;
}

/** Creates typed clients for both APIs that send `X-API-KEY` (and `Tenant-ID`) on every call. */
export function createClient(options: ClientOptions): GamificationClient {
  const setHeaders: Interceptor = (next) => (request) => {
    request.header.set("X-API-KEY", options.apiKey);
    if (options.tenantId !== undefined) request.header.set("Tenant-ID", options.tenantId);
    return next(request);
  };
  const interceptors = [setHeaders];
  const transport = options.transport
    ? options.transport(interceptors)
    : options.protocol === "grpc-web"
      ? createGrpcWebTransport({ baseUrl: options.baseUrl, interceptors, useBinaryFormat: options.binary ?? true })
      : createConnectTransport({ baseUrl: options.baseUrl, interceptors, useBinaryFormat: options.binary ?? false });
  return {
    application: createConnectClient(ApplicationService, transport),
    admin: createConnectClient(AdminService, transport),
    achievements: createConnectClient(AchievementAdminService, transport),
    leaderboards: createConnectClient(LeaderboardAdminService, transport),
    leaderboardReads: createConnectClient(LeaderboardService, transport),
    streaks: createConnectClient(StreakAdminService, transport),
    points: createConnectClient(PointsAdminService, transport),
    pointsReads: createConnectClient(PointsService, transport),
    webhooks: createConnectClient(WebhookAdminService, transport),
    settings: createConnectClient(SettingsAdminService, transport),
    privacy: createConnectClient(PrivacyAdminService, transport),
  };
}
