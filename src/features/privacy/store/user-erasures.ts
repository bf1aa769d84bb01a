import type { Collection } from "mongodb";
import type { RankingScope } from "../../leaderboards/store/leaderboard-rankings.js";

/**
 * An erasure of a user in progress (`user_erasures`, `_id` = `tenant/user`): written before the
 * first thing is deleted and deleted after the last, so a crash midway leaves it behind and a retry
 * (or the next start-up) finishes the erasure from it. It holds what was read from the user's
 * document before that document was deleted. The collection holds unfinished erasures only.
 */
export interface UserErasureDocument {
  _id: string;
  tenantId: string;
  userId: string;
  started: Date;
  /** The rankings that may hold the user (leaderboard runs and groups, the streak rankings). */
  scopes: RankingScope[];
  /**
   * The user's `idempotencyMoves` (their moved idempotency records are listed in that many pages);
   * null or absent (an erasure started by an earlier version): found by a query on the user.
   */
  idempotencyMoves?: number | null;
  /** The IDs of every pause the user may have had (`pauseIdsOf`); null or absent: their owners are found by a query. */
  pauseIds?: string[] | null;
}

export const erasureId = (tenantId: string, userId: string) => `${tenantId}/${userId}`;

export async function findErasure(erasures: Collection<UserErasureDocument>, tenantId: string, userId: string): Promise<UserErasureDocument | null> {
  return erasures.findOne({ _id: erasureId(tenantId, userId) });
}

/** Writes (or replaces) the erasure's plan. */
export async function saveErasure(erasures: Collection<UserErasureDocument>, doc: UserErasureDocument): Promise<void> {
  await erasures.replaceOne({ _id: doc._id }, doc, { upsert: true });
}

export async function deleteErasure(erasures: Collection<UserErasureDocument>, tenantId: string, userId: string): Promise<void> {
  await erasures.deleteOne({ _id: erasureId(tenantId, userId) });
}

/** Every unfinished erasure (the collection holds pending work only). */
export async function findUnfinishedErasures(erasures: Collection<UserErasureDocument>): Promise<UserErasureDocument[]> {
  return erasures.find({}).toArray();
}
