import { decimalToNumber } from "../../engine/domain/decimal.js";
import { rankingIdOf, type LeaderboardConfig } from "../leaderboards/domain/leaderboard-config.js";
import type { RankedLeaderboard } from "../leaderboards/domain/leaderboard-entries.js";
import {
  dateBeginsAnywhereAt,
  FINAL_SETTLING_MS,
  isRunFinal,
  runFinalAt,
  runOnDate,
  statusOf,
  type LeaderboardRun,
} from "../leaderboards/domain/leaderboard-runs.js";
import { addDays, isoDate } from "../../engine/domain/plain-dates.js";
import { createMessage, deterministicMessageId, leaderboardPayload, type OutboxMessage } from "./domain/webhooks.js";
import {
  changedAnnouncementId,
  deleteAnnouncements,
  findAnnouncements,
  recordChangeAnnouncement,
  recordRunAnnouncement,
  runsAnnouncementId,
  type LeaderboardAnnouncementDocument,
} from "./store/leaderboard-announcements.js";
import type { TenantWebhooks } from "../../engine/store/config-cache.js";
import type { ServiceContext } from "../../engine/context.js";
import { leaderboardScope, rankingScope, rankingsOf } from "../leaderboards/ranking-updates.js";
import { groupValuesOf } from "../leaderboards/domain/leaderboard-ranking.js";
import { rankedUsers } from "../leaderboards/leaderboard-reads.js";
import { handOverMessages } from "./webhook-outbox.js";
import { sha256 } from "../../engine/sha256.js";

type RunEventType = "leaderboard.started" | "leaderboard.changed" | "leaderboard.finished";
const RUN_EVENT_TYPES: readonly RunEventType[] = ["leaderboard.started", "leaderboard.changed", "leaderboard.finished"];

/** `leaderboard.changed` is sent at most this often per leaderboard run and group. */
export const CHANGED_EVERY_MS = 15 * 60_000;
/** Rankings a message lists at most (the top of the run, within `maxParticipants`). */
const MAX_RANKINGS = 1000;

/** A breakdown group of a run: its key in the rankings store and its attribute values. */
interface Group {
  group: string;
  values: Array<{ key: string; value: string }>;
}

/**
 * Announces leaderboard runs that started or finished, and rankings that changed, for every tenant
 * with an endpoint subscribed to the type (modelled on `announceBoosts`):
 * - `leaderboard.started` once per run, for the latest run that has begun somewhere (its first day
 *   has begun in UTC+14) while the leaderboard is active: runs that began while nobody checked are
 *   skipped, so a leaderboard created today with a start months ago announces today's run only;
 * - `leaderboard.finished` once per run, for the latest final run (12:00 UTC the day after its last
 *   day, announced `FINAL_SETTLING_MS` later) that was not final yet when the leaderboard was created; when several became final between
 *   two checks, only the latest is announced; status `finished` for the leaderboard's last run;
 * - `leaderboard.changed` for each run that is live (begun somewhere, not final) and group whose
 *   ranking version differs from the one last announced, at most once per run and group every
 *   fifteen minutes.
 * Each message lists the run's top `min(maxParticipants, 1000)` ranked participants; a leaderboard
 * with breakdown attributes gets one message per group of the run (with `breakdownAttributeValues`),
 * or one without rankings when nobody is ranked in the run yet. Messages get IDs derived from the
 * fact, are handed over to delivery (idempotent), and only then is the fact recorded in
 * `leaderboard_announcements` (see features/leaderboards/store/leaderboard-announcements.ts). Returns how many messages
 * it handed over.
 */
export async function announceLeaderboards(ctx: ServiceContext): Promise<number> {
  // Leaderboards are configuration (few): the tenants with one that is not inactive.
  const configured = await ctx.database.collections.leaderboards.find({ status: { $ne: "inactive" } }, { projection: { tenantId: 1 } }).toArray();
  const tenants = [...new Set(configured.map((d) => d.tenantId as string))];
  let announced = 0;
  for (const tenantId of tenants) {
    const webhooks = await ctx.config.webhooks(tenantId);
    const wanted = new Set(RUN_EVENT_TYPES.filter((t) => webhooks.subscribed.has(t)));
    if (wanted.size === 0) continue;
    announced += await announceTenant(ctx, tenantId, webhooks, wanted);
  }
  return announced;
}

async function announceTenant(ctx: ServiceContext, tenantId: string, webhooks: TenantWebhooks, wanted: ReadonlySet<RunEventType>): Promise<number> {
  const collection = ctx.database.collections.leaderboardAnnouncements;
  const [leaderboards, state] = await Promise.all([ctx.config.leaderboards(tenantId), findAnnouncements(collection, tenantId)]);
  let announced = 0;
  for (const ranked of leaderboards) {
    if (ranked.config.status === "inactive") continue;
    announced += await announceLeaderboard(ctx, tenantId, webhooks, wanted, ranked, state);
  }
  // Forget what no longer matters: changes of final runs, and leaderboards that were deleted.
  const now = ctx.now();
  // `changed` documents are by ranking (`rankingIdOf`): those of a redefined leaderboard's earlier rankings go too.
  const byId = new Map(leaderboards.map((l) => [l.config.id, l.config]));
  const byRankingId = new Map(leaderboards.map((l) => [rankingIdOf(l.config.id, l.config.rankingGeneration), l.config]));
  const stale = [...state.values()].filter((doc) => {
    if (doc.kind === "runs") return !byId.has(doc.leaderboardId);
    const config = byRankingId.get(doc.leaderboardId);
    return !config || isRunFinal(config, doc.run, now);
  });
  await deleteAnnouncements(
    collection,
    stale.map((d) => d._id),
  );
  return announced;
}

async function announceLeaderboard(
  ctx: ServiceContext,
  tenantId: string,
  webhooks: TenantWebhooks,
  wanted: ReadonlySet<RunEventType>,
  ranked: RankedLeaderboard,
  state: ReadonlyMap<string, LeaderboardAnnouncementDocument>,
): Promise<number> {
  const { config } = ranked;
  const collection = ctx.database.collections.leaderboardAnnouncements;
  const rankings = rankingsOf(ctx);
  const now = ctx.now();
  const active = statusOf(config, now) === "active";
  const runs = state.get(runsAnnouncementId(tenantId, config.id));
  const announcedRuns = runs?.kind === "runs" ? runs : undefined;
  const { live } = runsAt(config, now);
  // Final a little later than the rankings' own rule: the scheduler's last visits of the run
  // (`FINAL_SETTLING_MS`) are in the rankings it announces.
  const { final } = runsAt(config, new Date(now.getTime() - FINAL_SETTLING_MS));
  const current = live[live.length - 1];
  let announced = 0;

  const messagesFor = async (
    type: RunEventType,
    run: LeaderboardRun,
    groups: readonly Group[],
    status: "active" | "finished",
    at: Date,
    fact: (group: string) => string,
  ) => {
    const messages: OutboxMessage[] = [];
    for (const { group, values } of groups) {
      const rankingsPayload = await topRankings(ctx, tenantId, ranked, run, group);
      const leaderboard = {
        ...leaderboardPayload(ranked, run),
        status,
        rankings: rankingsPayload,
        ...(values.length > 0 && { breakdownAttributeValues: values }),
      };
      messages.push(createMessage(type, { leaderboard }, { id: deterministicMessageId(fact(group), sha256), tenant: webhooks.tenant, at }));
    }
    return messages;
  };
  const factOf = (type: RunEventType, run: LeaderboardRun) => (group: string) => `${tenantId}/leaderboard/${config.id}/${run.runStart}/${group}/${type}`;
  const rankingId = rankingIdOf(config.id, config.rankingGeneration);
  const scopeOf = (run: string, group: string) => rankingScope(tenantId, rankingId, run, group);

  // A group's ranking version, read before its rankings: a change committed in between is announced next time.
  const versionOf = (run: string, group: string, heads: ReadonlyArray<{ group: string; version: number }>) =>
    rankings.version(scopeOf(run, group), heads.find((h) => h.group === group)?.version);

  // Rankings a `started` message of this check showed, as a `changed` announcement would record them.
  const shownNow = new Map<string, LeaderboardAnnouncementDocument>();
  if (wanted.has("leaderboard.started") && active && current && announcedRuns?.started !== current.runStart) {
    const heads = await rankings.groupsOfRun(tenantId, rankingId, current.runStart);
    const groups = groupsOf(ranked, heads);
    // The versions the message shows: `changed` follows only a later change.
    const versions = await Promise.all(groups.map((g) => versionOf(current.runStart, g.group, heads)));
    const at = new Date(Math.max(dateBeginsAnywhereAt(current.runStart).getTime(), config.created.getTime()));
    const messages = await messagesFor("leaderboard.started", current, orWhole(groups), "active", at, factOf("leaderboard.started", current));
    await handOverMessages(ctx, tenantId, messages);
    for (const [i, g] of groups.entries()) {
      if (versions[i] === 0) continue;
      const shown = await recordChangeAnnouncement(collection, scopeOf(current.runStart, g.group), versions[i]!, now);
      shownNow.set(shown._id, shown);
    }
    await recordRunAnnouncement(collection, tenantId, config.id, "started", current.runStart);
    announced += messages.length;
  }

  // A final run is told apart by its end too: one reopened after it was announced (its end moved
  // later while the leaderboard was inactive) is announced again, with its own message IDs, once
  // final again. (A record of its start alone was written before ends were kept.)
  const finishedRun = final && `${final.runStart}/${final.runEnd}`;
  if (wanted.has("leaderboard.finished") && final && announcedRuns?.finished !== finishedRun && announcedRuns?.finished !== final.runStart) {
    const finalAt = runFinalAt(config, final.runStart)!;
    // A run that was final before the leaderboard existed is not news.
    if (config.created.getTime() < finalAt.getTime()) {
      const groups = groupsOf(ranked, await rankings.groupsOfRun(tenantId, rankingId, final.runStart));
      const last = config.status === "finished" || (config.end !== null && final.runEnd === config.end);
      const messages = await messagesFor(
        "leaderboard.finished",
        final,
        orWhole(groups),
        last ? "finished" : "active",
        finalAt,
        (group) => `${factOf("leaderboard.finished", final)(group)}/${final.runEnd}`,
      );
      await handOverMessages(ctx, tenantId, messages);
      announced += messages.length;
    }
    await recordRunAnnouncement(collection, tenantId, config.id, "finished", finishedRun!);
  }

  if (wanted.has("leaderboard.changed") && active) {
    for (const run of live) {
      const heads = await rankings.groupsOfRun(tenantId, rankingId, run.runStart);
      for (const g of groupsOf(ranked, heads)) {
        const id = changedAnnouncementId(tenantId, rankingId, run.runStart, g.group);
        const previous = shownNow.get(id) ?? state.get(id);
        const last = previous?.kind === "changed" ? previous : undefined;
        if (last && now.getTime() - last.announcedAt.getTime() < CHANGED_EVERY_MS) continue;
        const version = await versionOf(run.runStart, g.group, heads);
        if (version === 0 || last?.version === version) continue;
        const messages = await messagesFor(
          "leaderboard.changed",
          run,
          [g],
          "active",
          now,
          (group) => `${factOf("leaderboard.changed", run)(group)}/${version}`,
        );
        await handOverMessages(ctx, tenantId, messages);
        await recordChangeAnnouncement(collection, scopeOf(run.runStart, g.group), version, now);
        announced += messages.length;
      }
    }
  }
  return announced;
}

/**
 * The runs at `now`: those live (begun somewhere, not final yet), oldest first, and the latest
 * final one (null if none). At most a few: a date lasts 50 hours around the world.
 */
export function runsAt(config: LeaderboardConfig, now: Date): { live: LeaderboardRun[]; final: LeaderboardRun | null } {
  // The latest date that has begun somewhere (UTC+14 is up to a day ahead of UTC).
  let date = isoDate(now.getTime());
  while (dateBeginsAnywhereAt(addDays(date, 1)).getTime() <= now.getTime()) date = addDays(date, 1);
  if (dateBeginsAnywhereAt(config.start).getTime() > now.getTime()) return { live: [], final: null };
  if (date < config.start) date = config.start;
  if (config.end !== null && date > config.end) date = config.end;
  const live: LeaderboardRun[] = [];
  let run: LeaderboardRun | null = runOnDate(config, date);
  while (run !== null && !isRunFinal(config, run.runStart, now)) {
    live.unshift(run);
    run = run.runStart <= config.start ? null : runOnDate(config, addDays(run.runStart, -1));
  }
  return { live, final: run };
}

/** The groups with a ranking in a run, as the leaderboard's breakdown now reads them (others are skipped). */
function groupsOf(ranked: RankedLeaderboard, heads: ReadonlyArray<{ group: string }>): Group[] {
  const keys = ranked.breakdownKeys;
  const groups: Group[] = [];
  for (const { group } of heads) {
    // Groups written under another breakdown configuration have another number of values.
    const values = groupValuesOf(group);
    if (values.length === keys.length) groups.push({ group, values: keys.map((key, i) => ({ key, value: values[i]! })) });
  }
  return groups;
}

/** The groups, or the leaderboard as a whole (no rankings yet) when the run has none. */
function orWhole(groups: Group[]): Group[] {
  return groups.length > 0 ? groups : [{ group: "", values: [] }];
}

/** The top of a run's ranking in a group, with the users' names (one query). */
async function topRankings(ctx: ServiceContext, tenantId: string, ranked: RankedLeaderboard, run: LeaderboardRun, group: string) {
  const { config } = ranked;
  const page = await rankingsOf(ctx).page(leaderboardScope(tenantId, config, run.runStart, group), 0, Math.min(config.maxParticipants, MAX_RANKINGS));
  const users = await rankedUsers(
    ctx,
    tenantId,
    page.entries.map((e) => e.userId),
  );
  return users
    .visible(page.entries)
    .map((e) => ({ userId: e.userId, userName: users.names.get(e.userId) ?? null, rank: e.position, value: decimalToNumber(e.value) }));
}
