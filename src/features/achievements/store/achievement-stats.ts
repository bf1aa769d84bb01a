import type { Collection } from "mongodb";
import type { UserState } from "../../../engine/domain/user.js";
import { retryOnDuplicate } from "../../../engine/store/database.js";
import type { KeyedLock } from "../../../engine/store/keyed-lock.js";
import type { UserDocument } from "../../../engine/store/user-documents.js";

/**
 * Counters behind achievement rarity, so a list of achievements reads a few documents by `_id`
 * instead of counting the tenant's users: `tenant/users` (users of the tenant) and
 * `tenant/a/<achievementId>` (users holding the achievement). Every user write adds what it changed
 * (engine/store/user-documents.ts callers: `commitUserChange`), right after the write.
 *
 * A database that had users before the counters existed establishes each tenant's counters once by
 * counting (`initialized` on its users counter) on its first read; a database that starts with
 * counters (`*`, written at start-up when it has no users yet) never counts. A crash between a user
 * write and its counter update loses that one update: rarity is a statistic, not a balance.
 */
export interface AchievementStatsDocument {
  _id: string;
  tenantId: string;
  count: number;
  /** On the users counter: the counters of this tenant were established by a count. */
  initialized?: boolean;
}

const usersId = (tenantId: string) => `${tenantId}/users`;
/** The database's own marker: `initialized` when every user was counted from the first. */
const BASELINE_ID = "*";

/** At start-up: a database without users yet keeps its counters from the first user on. */
export async function ensureStatsBaseline(stats: Collection<AchievementStatsDocument>, users: Collection<UserDocument>): Promise<void> {
  if (await stats.findOne({ _id: BASELINE_ID })) return;
  const hasUsers = (await users.findOne({}, { projection: { _id: 1 } })) !== null;
  await stats.updateOne({ _id: BASELINE_ID }, { $setOnInsert: { tenantId: "", count: 0, initialized: !hasUsers } }, { upsert: true });
}

const countedFromTheStart = new WeakSet<Collection<AchievementStatsDocument>>();
const achievementId = (tenantId: string, id: string) => `${tenantId}/a/${id}`;

/** What a user write changes in the counters: +1/-1 per counter. */
export function statsChanges(before: UserState | null, after: UserState): Map<string, number> {
  const changes = new Map<string, number>();
  if (!before) changes.set("users", 1);
  for (const id of Object.keys(after.achievements)) if (!before?.achievements[id]) changes.set(`a/${id}`, 1);
  for (const id of Object.keys(before?.achievements ?? {})) if (!after.achievements[id]) changes.set(`a/${id}`, -1);
  return changes;
}

export async function applyStatsChanges(
  stats: Collection<AchievementStatsDocument>,
  locks: KeyedLock,
  tenantId: string,
  changes: Map<string, number>,
): Promise<void> {
  await Promise.all(
    [...changes].map(([key, delta]) => {
      const _id = `${tenantId}/${key}`;
      // FerretDB applies `$inc` as a read then a write: this process increments one counter at a time.
      return locks.run(`achievement_stats:${_id}`, () =>
        retryOnDuplicate(() => stats.updateOne({ _id }, { $inc: { count: delta }, $setOnInsert: { tenantId } }, { upsert: true })),
      );
    }),
  );
}

/**
 * The tenant's number of users and, per achievement, of users holding it. `countOnce` establishes
 * the counters of a tenant whose users counter was never initialized (run once per tenant).
 */
export async function readAchievementStats(
  stats: Collection<AchievementStatsDocument>,
  locks: KeyedLock,
  tenantId: string,
  achievementIds: readonly string[],
  countOnce: () => Promise<{ users: number; completions: Map<string, number> }>,
): Promise<{ users: number; completions: Map<string, number> }> {
  if (!countedFromTheStart.has(stats) && (await stats.findOne({ _id: BASELINE_ID }))?.initialized) countedFromTheStart.add(stats);
  let users = await stats.findOne({ _id: usersId(tenantId) });
  if (!users?.initialized && !countedFromTheStart.has(stats)) {
    await locks.run(`achievement_stats:${usersId(tenantId)}`, async () => {
      if ((await stats.findOne({ _id: usersId(tenantId) }))?.initialized) return;
      const counted = await countOnce();
      await stats.bulkWrite(
        [
          { replaceOne: { filter: { _id: usersId(tenantId) }, replacement: { tenantId, count: counted.users, initialized: true }, upsert: true } },
          ...[...counted.completions].map(([id, count]) => ({
            replaceOne: { filter: { _id: achievementId(tenantId, id) }, replacement: { tenantId, count }, upsert: true },
          })),
        ],
        { ordered: true },
      );
    });
    users = await stats.findOne({ _id: usersId(tenantId) });
  }
  const docs = await Promise.all(achievementIds.map((id) => stats.findOne({ _id: achievementId(tenantId, id) })));
  return { users: users?.count ?? 0, completions: new Map(achievementIds.map((id, i) => [id, Math.max(0, docs[i]?.count ?? 0)])) };
}
