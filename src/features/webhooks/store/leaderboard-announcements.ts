import type { Collection } from "mongodb";
import { isDuplicateKeyError } from "../../../engine/store/database.js";

/**
 * What the webhook worker announced about leaderboards (`leaderboard_announcements`), kept apart
 * from the leaderboard configuration documents (an admin update replaces those). Two kinds of
 * document, by a deterministic `_id`:
 * - `runs:["<tenantId>","<leaderboardId>"]`: `{tenantId, leaderboardId, kind: "runs", started?,
 *   finished?}`, the first day of the last run announced by `leaderboard.started` and by
 *   `leaderboard.finished`;
 * - `changed:["<tenantId>","<leaderboardId>","<run>","<group>"]`: `{tenantId, leaderboardId, kind:
 *   "changed", run, group, version, announcedAt}`, the ranking version the last
 *   `leaderboard.changed` of that run and group showed, and when it was announced. Its
 *   `leaderboardId` is the ranking's (`rankingIdOf`: versions count per definition). Deleted once
 *   the run is final (or the leaderboard gone, or redefined).
 * A document is written only after its messages were handed over to delivery (message IDs are
 * deterministic, so a crash in between repeats the hand-over harmlessly). Read per tenant
 * (index `tenantId`).
 */
export type LeaderboardAnnouncementDocument =
  | { _id: string; tenantId: string; leaderboardId: string; kind: "runs"; started?: string; finished?: string }
  | { _id: string; tenantId: string; leaderboardId: string; kind: "changed"; run: string; group: string; version: number; announcedAt: Date };

export type RunsAnnouncement = Extract<LeaderboardAnnouncementDocument, { kind: "runs" }>;
export type ChangedAnnouncement = Extract<LeaderboardAnnouncementDocument, { kind: "changed" }>;

export function runsAnnouncementId(tenantId: string, leaderboardId: string): string {
  return `runs:${JSON.stringify([tenantId, leaderboardId])}`;
}

export function changedAnnouncementId(tenantId: string, leaderboardId: string, run: string, group: string): string {
  return `changed:${JSON.stringify([tenantId, leaderboardId, run, group])}`;
}

/** Every announcement document of a tenant, by `_id` (one query). */
export async function findAnnouncements(
  collection: Collection<LeaderboardAnnouncementDocument>,
  tenantId: string,
): Promise<Map<string, LeaderboardAnnouncementDocument>> {
  const docs = await collection.find({ tenantId }).toArray();
  return new Map(docs.map((d) => [d._id, d as LeaderboardAnnouncementDocument]));
}

/** Upserts by `_id`, once more if a concurrent upsert created the document first. */
async function upsert(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    await run();
  }
}

/** Records that a run was announced as started or finished. */
export async function recordRunAnnouncement(
  collection: Collection<LeaderboardAnnouncementDocument>,
  tenantId: string,
  leaderboardId: string,
  fact: "started" | "finished",
  run: string,
): Promise<void> {
  const _id = runsAnnouncementId(tenantId, leaderboardId);
  await upsert(() => collection.updateOne({ _id }, { $set: { [fact]: run }, $setOnInsert: { tenantId, leaderboardId, kind: "runs" } }, { upsert: true }));
}

/** Records the ranking version a `leaderboard.changed` of a run and group showed. */
export async function recordChangeAnnouncement(
  collection: Collection<LeaderboardAnnouncementDocument>,
  scope: { tenantId: string; leaderboardId: string; run: string; group: string },
  version: number,
  announcedAt: Date,
): Promise<ChangedAnnouncement> {
  const doc: ChangedAnnouncement = {
    _id: changedAnnouncementId(scope.tenantId, scope.leaderboardId, scope.run, scope.group),
    kind: "changed",
    ...scope,
    version,
    announcedAt,
  };
  await upsert(() => collection.replaceOne({ _id: doc._id }, doc, { upsert: true }));
  return doc;
}

export async function deleteAnnouncements(collection: Collection<LeaderboardAnnouncementDocument>, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await collection.deleteMany({ _id: { $in: [...ids] } });
}
