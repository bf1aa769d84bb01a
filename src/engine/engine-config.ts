import { randomUUID } from "node:crypto";
import type { EngineConfig } from "./domain/reactions.js";
import type { ServiceContext } from "./context.js";
import { sha256 } from "./sha256.js";

/** The tenant's configuration snapshot for the engine, read once per call from the config cache. */
export async function loadEngineConfig(ctx: ServiceContext, tenantId: string): Promise<EngineConfig> {
  const [achievements, points, streak, webhooks, leaderboards, settings] = await Promise.all([
    ctx.config.achievements(tenantId),
    ctx.config.pointsConfig(tenantId),
    ctx.config.streakSettings(tenantId),
    ctx.config.webhooks(tenantId),
    ctx.config.leaderboards(tenantId),
    ctx.config.accountSettings(tenantId),
  ]);
  return {
    achievements,
    points,
    streak,
    newId: randomUUID,
    sha256,
    webhooks,
    leaderboards,
    controlRatio: settings.experimentation.controlRatio,
  };
}
