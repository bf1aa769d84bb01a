import Big from "big.js";
import type { DecimalString } from "../../../engine/domain/decimal.js";

/**
 * Leaderboard rankings: the order, and the structure that makes a rank cheap to read among a million
 * participants. Pure: the store (src/features/leaderboards/store/leaderboard-rankings.ts) loads and writes what this module
 * decides.
 *
 * ORDER. One total order, the same on every read, so ranks are distinct: higher value first; for
 * equal values, whoever reached the value earlier (`reachedAt`, the time of the change that set the
 * current value; unchanged when a change keeps the value); then user ID (UTF-16 code-unit order).
 * A participant's rank is their position in this order. `maxParticipants` ranks only the first N:
 * everyone who took part stays ordered (so when a ranked value falls, the next participant moves up
 * exactly), and positions beyond N have no rank (null). A newcomer reaches their value now, after
 * everyone already holding it, so they enter a full leaderboard only by beating the lowest ranked
 * value (ties lose): `threshold` is that value (0 while the leaderboard has room). Breakdown groups
 * are separate rankings (a separate scope each); the limit applies per group, as in the reference.
 *
 * STRUCTURE. Each participant is one LINE, a string whose plain string order is the rank order:
 * `valueCode + reachedAt (9 base-36 digits) + escaped user ID` (see `rankLine`). A ranking is a
 * sorted list of lines cut into CHUNKS of at most `max` lines (and at least `min`, unless it is the
 * only chunk). A small INDEX lists, per chunk, its ID, its FENCE (a string no greater than its first
 * line and greater than the previous chunk's last line; the first fence is "") and its line count.
 * A user's position = the counts of the chunks before theirs (from the index) + their place in
 * their chunk (binary search): the index and one chunk, whatever the number of participants. A
 * page reads the index and the one or two chunks covering it (chunks hold at least `min` lines).
 * A second chunked list, ordered by user ID (`userLine`), finds a user's current line, so a user's
 * rank costs one more chunk. Chunks are split when they exceed `max` and merged with a neighbour
 * when a change leaves them below `min`: a million participants make 1,000 to 4,000 chunks per
 * list with the default limits, an index of a few tens of kilobytes. Counts are not maintained by
 * increments anywhere: a chunk's count is the number of lines it holds, and the store replaces
 * chunks and index together in one atomic step (see src/features/leaderboards/store/leaderboard-rankings.ts).
 */

/** Lines per chunk: split above `max`, merge below `min` (`min` at most `max / 2`). */
export interface ChunkLimits {
  max: number;
  min: number;
}

export const DEFAULT_CHUNK_LIMITS: ChunkLimits = { max: 1000, min: 250 };

/** A participant's standing: what decides their place. */
export interface Standing {
  userId: string;
  value: DecimalString;
  reachedAt: Date;
}

/** A standing with its 1-based position in the order (its rank, when within `maxParticipants`). */
export interface RankedStanding extends Standing {
  position: number;
}

// ---- the order ------------------------------------------------------------------------------------

/**
 * The documented order, compared directly (the lines compare the same way as strings; the tests
 * check it): negative when `a` ranks before `b`.
 */
export function compareStandings(a: Standing, b: Standing): number {
  const byValue = new Big(b.value).cmp(a.value);
  if (byValue !== 0) return byValue;
  const byTime = a.reachedAt.getTime() - b.reachedAt.getTime();
  if (byTime !== 0) return byTime;
  return a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0;
}

/** The rank to show for a position: the position within the first `maxParticipants`, else null. */
export function rankWithin(position: number | null, maxParticipants: number): number | null {
  return position !== null && position <= maxParticipants ? position : null;
}

/**
 * The value a newcomer must beat to enter: the lowest ranked value when the leaderboard is full
 * (`lowestRanked`, the value at position `maxParticipants`), 0 while it has room.
 */
export function entryThreshold(lowestRanked: DecimalString | null): DecimalString {
  return lowestRanked ?? "0";
}

/**
 * The ranking group of a user: the user's values of the breakdown attributes, in the
 * leaderboard's order; "" for a leaderboard without breakdowns. Null when the user lacks one of
 * the values: such a user is in no group and takes no part.
 */
export function groupKey(values: ReadonlyArray<string | null | undefined>): string | null {
  if (values.length === 0) return "";
  if (values.some((v) => v === null || v === undefined)) return null;
  return JSON.stringify(values);
}

/** The breakdown values a group key stands for ([] for the "" of a leaderboard without breakdowns). */
export function groupValuesOf(group: string): string[] {
  return group === "" ? [] : (JSON.parse(group) as string[]);
}

// ---- lines: standings as strings in rank order -------------------------------------------------

const ESCAPE = "\x0b";
const USER_SEPARATOR = "\x01";
const TIME_DIGITS = 9;
const MAX_TIME = 36 ** TIME_DIGITS;
const EXPONENT_OFFSET = 500;

/**
 * A user ID with the code units 0x00 to 0x0B escaped as 0x0B + ("0" + unit), so lines can use
 * "\n" and U+0001 as separators. It keeps the order: escaped units sort below every unit that is
 * kept as is (all of them are above 0x0B), and among themselves as before.
 */
export function escapeUserId(userId: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what gets escaped
  return userId.replace(/[\x00-\x0b]/g, (c) => ESCAPE + String.fromCharCode(0x30 + c.charCodeAt(0)));
}

export function unescapeUserId(escaped: string): string {
  // eslint-disable-next-line no-control-regex -- 0x0B is the escape character
  return escaped.replace(/\x0b([\s\S])/g, (_, c: string) => String.fromCharCode(c.charCodeAt(0) - 0x30));
}

/**
 * A decimal as a string that sorts in DESCENDING order of the value. With the value written
 * 0.d1d2…dn × 10^E (d1 and dn not 0): positive values are "1", 999 − (E + 500) in three digits, the
 * digits 9 − d, then ":" (above every digit, so 0.12 sorts after 0.123); zero is "2"; negative values
 * are "3", E + 500 in three digits, the digits, then "!" (below every digit). Exponents from −500
 * to 499 (JavaScript numbers stay within −323 to 309).
 */
export function encodeValue(value: DecimalString): string {
  const big = new Big(value);
  if (big.c.length === 1 && big.c[0] === 0) return "2";
  const exponent = big.e + 1;
  if (exponent < -EXPONENT_OFFSET || exponent >= EXPONENT_OFFSET) throw new RangeError(`value out of the ranking's range: ${value}`);
  if (big.s > 0) {
    return "1" + String(EXPONENT_OFFSET - 1 - exponent).padStart(3, "0") + big.c.map((d) => String(9 - d)).join("") + ":";
  }
  return "3" + String(exponent + EXPONENT_OFFSET).padStart(3, "0") + big.c.join("") + "!";
}

/** Decodes the value code at the start of `code`; `end` is where the code stops. */
export function decodeValue(code: string): { value: DecimalString; end: number } {
  if (code[0] === "2") return { value: "0", end: 1 };
  const positive = code[0] === "1";
  const terminator = code.indexOf(positive ? ":" : "!", 4);
  if ((!positive && code[0] !== "3") || terminator < 0) throw new Error(`not a value code: ${JSON.stringify(code.slice(0, 20))}`);
  const field = Number(code.slice(1, 4));
  const exponent = positive ? EXPONENT_OFFSET - 1 - field : field - EXPONENT_OFFSET;
  let digits = code.slice(4, terminator);
  if (positive) digits = [...digits].map((d) => String(9 - Number(d))).join("");
  const value = new Big(`${positive ? "" : "-"}0.${digits}e${exponent}`).toFixed();
  return { value, end: terminator + 1 };
}

function encodeTime(at: Date): string {
  const ms = at.getTime();
  if (!Number.isInteger(ms) || ms < 0 || ms >= MAX_TIME) throw new RangeError(`time out of the ranking's range: ${at.toISOString()}`);
  return ms.toString(36).padStart(TIME_DIGITS, "0");
}

/** A participant's line: sorting lines as strings sorts participants in rank order. */
export function rankLine(standing: Standing): string {
  return encodeValue(standing.value) + encodeTime(standing.reachedAt) + escapeUserId(standing.userId);
}

/** The value code a line starts with (equal codes, equal values). */
export function valueCodeOf(line: string): string {
  return line.slice(0, decodeValue(line).end);
}

export function parseRankLine(line: string): Standing {
  const { value, end } = decodeValue(line);
  return {
    value,
    reachedAt: new Date(parseInt(line.slice(end, end + TIME_DIGITS), 36)),
    userId: unescapeUserId(line.slice(end + TIME_DIGITS)),
  };
}

/** The prefix of a user's line in the list ordered by user ID. */
export function userProbe(userId: string): string {
  return escapeUserId(userId) + USER_SEPARATOR;
}

/** A rank line rewritten for the list ordered by user ID: escaped ID, U+0001, value code and time. */
export function userLine(line: string): string {
  const { end } = decodeValue(line);
  return line.slice(end + TIME_DIGITS) + USER_SEPARATOR + line.slice(0, end + TIME_DIGITS);
}

/** The rank line a user line stands for. */
export function rankLineOfUserLine(line: string): string {
  const split = line.indexOf(USER_SEPARATOR);
  return line.slice(split + 1) + line.slice(0, split);
}

/** What a user line is filed under: the escaped user ID and the separator. */
export function userKeyOf(line: string): string {
  return line.slice(0, line.indexOf(USER_SEPARATOR) + 1);
}

const identity = (line: string) => line;

// ---- the index ------------------------------------------------------------------------------------

/** The chunks of one list, in order. */
export interface ChunkIndex {
  ids: string[];
  fences: string[];
  counts: number[];
}

export function emptyIndex(): ChunkIndex {
  return { ids: [], fences: [], counts: [] };
}

/**
 * The index as three strings (ids space-separated, fences "\n"-separated, counts comma-separated):
 * compact to store, and cheap for the database to skip over.
 */
export interface PackedIndex {
  ids: string;
  fences: string;
  counts: string;
}

export function packIndex(index: ChunkIndex): PackedIndex {
  return { ids: index.ids.join(" "), fences: index.fences.join("\n"), counts: index.counts.join(",") };
}

export function unpackIndex(packed: PackedIndex): ChunkIndex {
  if (packed.ids === "") return emptyIndex();
  return { ids: packed.ids.split(" "), fences: packed.fences.split("\n"), counts: packed.counts.split(",").map(Number) };
}

/**
 * Both indexes of a ranking as one sorted list of lines (`r`/`u`, fence, chunk ID and count, joined
 * by U+0001): the rank list's chunks first, then the user list's, each in fence order, so an index
 * can be stored like a chunk, as a base and a patch of the entries changed since (`diffSortedLines`).
 * Fences are escaped as user IDs are (no unit below U+000C is left but the escape itself, and the
 * order is kept) and are strictly increasing, and U+0001 sorts below every unit an escaped fence
 * holds, so the lines' order is the index order.
 */
export function indexLines(rank: ChunkIndex, users: ChunkIndex): string[] {
  const lines: string[] = [];
  for (const [list, index] of [
    ["r", rank],
    ["u", users],
  ] as const) {
    for (let i = 0; i < index.ids.length; i++) {
      lines.push([list, escapeUserId(index.fences[i]!), index.ids[i]!, index.counts[i]!].join(INDEX_SEPARATOR));
    }
  }
  return lines;
}
const INDEX_SEPARATOR = "\x01";

/** What an index line is filed under: its list and fence (a commit changes an entry's chunk ID and count, not its key). */
function indexKeyOf(line: string): string {
  return line.slice(0, line.indexOf(INDEX_SEPARATOR, line.indexOf(INDEX_SEPARATOR) + 1) + 1);
}

/**
 * The patch turning sorted index lines `base` into `lines`, by entry: "+line" for an entry added or
 * changed (it replaces the base's entry with the same list and fence), "-line" for one removed. A
 * commit that patches a chunk changes its entry's ID and count: one line, where a patch of whole
 * lines (`diffSortedLines`) needs two, so the patch grows half as fast.
 */
export function diffIndexLines(base: readonly string[], lines: readonly string[]): string[] {
  const patch: string[] = [];
  let i = 0;
  let j = 0;
  while (i < base.length || j < lines.length) {
    const a = base[i];
    const b = lines[j];
    const ka = a === undefined ? undefined : indexKeyOf(a);
    const kb = b === undefined ? undefined : indexKeyOf(b);
    if (ka !== undefined && ka === kb) {
      if (a !== b) patch.push("+" + b);
      i++;
      j++;
    } else if (kb === undefined || (ka !== undefined && ka < kb)) {
      patch.push("-" + a);
      i++;
    } else {
      patch.push("+" + b);
      j++;
    }
  }
  return patch;
}

/** Index lines `base` with a patch of `diffIndexLines` applied (or of `diffSortedLines`: the same result). */
export function applyIndexPatch(base: readonly string[], patch: readonly string[]): string[] {
  const removed = new Set<string>();
  const added: string[] = [];
  for (const entry of patch) {
    if (entry[0] === "-") removed.add(entry.slice(1));
    else added.push(entry.slice(1));
  }
  const replaced = new Set(added.map(indexKeyOf));
  const kept = base.filter((line) => !removed.has(line) && !replaced.has(indexKeyOf(line)));
  return applyPatch(
    kept,
    added.map((line) => "+" + line),
  );
}

/** The indexes `indexLines` listed. */
export function indexesOfLines(lines: readonly string[]): { rank: ChunkIndex; users: ChunkIndex } {
  const rank = emptyIndex();
  const users = emptyIndex();
  for (const line of lines) {
    const [list, fence, id, count] = line.split(INDEX_SEPARATOR);
    const index = list === "r" ? rank : users;
    index.fences.push(unescapeUserId(fence!));
    index.ids.push(id!);
    index.counts.push(Number(count));
  }
  return { rank, users };
}

/** The index of the chunk a key belongs in: the last whose fence is at most the key (-1: no chunks). */
export function chunkFor(fences: readonly string[], key: string): number {
  let lo = 0;
  let hi = fences.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (fences[mid]! <= key) lo = mid;
    else hi = mid - 1;
  }
  return fences.length === 0 ? -1 : lo;
}

/** The chunk holding a 1-based position and the number of lines in the chunks before it. */
export function chunkAtPosition(counts: readonly number[], position: number): { chunk: number; before: number } | null {
  let before = 0;
  for (let i = 0; i < counts.length; i++) {
    if (position <= before + counts[i]!) return position > before ? { chunk: i, before } : null;
    before += counts[i]!;
  }
  return null;
}

/** The number of lines in the chunks before chunk `i`. */
export function countBefore(counts: readonly number[], i: number): number {
  let sum = 0;
  for (let j = 0; j < i; j++) sum += counts[j]!;
  return sum;
}

/** The first index in sorted `lines` whose line is at least `key`. */
export function lowerBound(lines: readonly string[], key: string): number {
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The shortest fence between two keys `a < b`: a prefix of `b` greater than `a`. */
export function fenceBetween(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return b.slice(0, i + 1);
}

// ---- a list being changed -------------------------------------------------------------------------

interface DraftChunk {
  /** The stored chunk's ID; null once the content changed (to be written under a new ID). */
  id: string | null;
  fence: string;
  count: number;
  /** The lines, once loaded (null: not loaded; not needed unless changed or read). */
  lines: string[] | null;
  /** A stored chunk this one only edits (lines inserted or removed; not split, merged or emptied). */
  origin?: ChunkOrigin;
}

/** The stored chunk a written chunk was edited from: its ID and its lines as stored. */
export interface ChunkOrigin {
  id: string;
  lines: readonly string[];
}

/** A chunk `finish` asks to write: its new ID, lines, and the stored chunk it edits, if any. */
export interface WrittenChunk {
  id: string;
  lines: string[];
  origin?: ChunkOrigin;
}

/**
 * A chunked list being changed: the stored index plus the chunks loaded so far. Lines are inserted
 * and removed in memory; `rebalance` splits and merges chunks (asking for the neighbours it needs);
 * `finish` gives the next index and the chunks to write. Chunks are never changed in place: a
 * changed chunk is written under a new ID, so a stored index always names exactly its chunks' content.
 */
export class ChunkListDraft {
  private readonly chunks: DraftChunk[];
  /** IDs of stored chunks the next index no longer names. */
  readonly replaced: string[] = [];
  private changed = false;

  constructor(
    index: ChunkIndex,
    private readonly limits: ChunkLimits,
    /** What a line is filed under (its fence is compared with this). */
    private readonly keyOf: (line: string) => string = identity,
  ) {
    if (limits.min < 1 || limits.min * 2 > limits.max) throw new RangeError(`chunk limits need 1 <= min <= max / 2, got ${JSON.stringify(limits)}`);
    this.chunks = index.ids.map((id, i) => ({ id, fence: index.fences[i]!, count: index.counts[i]!, lines: null }));
  }

  get total(): number {
    return this.chunks.reduce((sum, c) => sum + c.count, 0);
  }

  get isChanged(): boolean {
    return this.changed;
  }

  /** IDs of the stored chunks holding these keys that are not loaded yet. */
  missingFor(keys: Iterable<string>): string[] {
    const ids = new Set<string>();
    for (const key of keys) {
      const chunk = this.chunks[this.locate(key)];
      if (chunk && chunk.lines === null && chunk.id !== null) ids.add(chunk.id);
    }
    return [...ids];
  }

  /** Provides the lines of a stored chunk (as listed in the index). */
  load(id: string, lines: string[]): void {
    const chunk = this.chunks.find((c) => c.id === id);
    if (!chunk) throw new Error(`chunk ${id} is not in this list`);
    if (lines.length !== chunk.count) throw new Error(`chunk ${id} holds ${lines.length} lines, the index says ${chunk.count}`);
    chunk.lines = lines;
  }

  /** The first line starting with `prefix` (a whole line, or a user's probe), or null. */
  findByPrefix(prefix: string): string | null {
    const lines = this.loadedLines(this.locate(prefix));
    if (!lines) return null;
    const line = lines[lowerBound(lines, prefix)];
    return line !== undefined && line.startsWith(prefix) ? line : null;
  }

  /** The line at a 1-based position; null when there is none, undefined when its chunk is not loaded. */
  lineAt(position: number): string | null | undefined {
    const found = chunkAtPosition(
      this.chunks.map((c) => c.count),
      position,
    );
    if (!found) return null;
    return this.chunks[found.chunk]!.lines?.[position - found.before - 1];
  }

  /** The 1-based position of a line, or null when it is not in the list. */
  positionOf(line: string): number | null {
    const i = this.locate(this.keyOf(line));
    const lines = this.loadedLines(i);
    if (!lines) return null;
    const at = lowerBound(lines, line);
    if (lines[at] !== line) return null;
    return (
      countBefore(
        this.chunks.map((c) => c.count),
        i,
      ) +
      at +
      1
    );
  }

  insert(line: string): void {
    if (this.chunks.length === 0) this.chunks.push({ id: null, fence: "", count: 0, lines: [] });
    const chunk = this.chunks[this.locate(this.keyOf(line))]!;
    const lines = this.writable(chunk);
    const at = lowerBound(lines, line);
    if (lines[at] === line) throw new Error("line already in the list");
    lines.splice(at, 0, line);
    chunk.count += 1;
  }

  remove(line: string): void {
    const chunk = this.chunks[this.locate(this.keyOf(line))];
    const lines = chunk ? this.writable(chunk) : [];
    const at = lowerBound(lines, line);
    if (lines[at] !== line) throw new Error("line not in the list");
    lines.splice(at, 1);
    chunk!.count -= 1;
  }

  /**
   * Splits chunks above `max`, drops empty ones and merges changed chunks below `min` with a
   * neighbour. Returns the IDs of neighbours to load first ([] when done): load them and call again.
   */
  rebalance(): string[] {
    for (;;) {
      let again = false;
      for (let i = this.chunks.length - 1; i >= 0; i--) {
        const chunk = this.chunks[i]!;
        if (chunk.count === 0) {
          this.dissolve(chunk);
          this.chunks.splice(i, 1);
        } else if (chunk.lines !== null && chunk.count > this.limits.max) {
          this.chunks.splice(i, 1, ...this.split(chunk));
        }
      }
      if (this.chunks.length > 0) this.chunks[0]!.fence = "";
      const needed = new Set<string>();
      for (let i = 0; this.chunks.length > 1 && i < this.chunks.length; i++) {
        const chunk = this.chunks[i]!;
        if (chunk.id !== null || chunk.count >= this.limits.min) continue; // only changed chunks
        const j = i + 1 < this.chunks.length ? i + 1 : i - 1;
        const neighbour = this.chunks[j]!;
        if (neighbour.lines === null) {
          needed.add(neighbour.id!);
          continue;
        }
        const [left, right] = j > i ? [chunk, neighbour] : [neighbour, chunk];
        this.dissolve(left);
        this.dissolve(right);
        const merged: DraftChunk = { id: null, fence: left.fence, count: left.count + right.count, lines: [...left.lines!, ...right.lines!] };
        this.chunks.splice(Math.min(i, j), 2, merged);
        again = true;
        break;
      }
      if (!again) return [...needed];
    }
  }

  /** The next index and the new chunks to write, under IDs from `newId`. */
  finish(newId: () => string): { index: ChunkIndex; written: WrittenChunk[] } {
    const written: WrittenChunk[] = [];
    const index = emptyIndex();
    for (const chunk of this.chunks) {
      if (chunk.id === null) {
        chunk.id = newId();
        written.push(chunk.origin ? { id: chunk.id, lines: chunk.lines!, origin: chunk.origin } : { id: chunk.id, lines: chunk.lines! });
      }
      index.ids.push(chunk.id);
      index.fences.push(chunk.fence);
      index.counts.push(chunk.count);
    }
    return { index, written };
  }

  private locate(key: string): number {
    return chunkFor(
      this.chunks.map((c) => c.fence),
      key,
    );
  }

  private loadedLines(i: number): string[] | null {
    const chunk = this.chunks[i];
    if (!chunk) return null;
    if (chunk.lines === null) throw new Error(`chunk ${chunk.id} is needed but not loaded`);
    return chunk.lines;
  }

  /** The chunk's lines, to be changed: the chunk will be written under a new ID. */
  private writable(chunk: DraftChunk): string[] {
    if (chunk.lines === null) throw new Error(`chunk ${chunk.id} is needed but not loaded`);
    if (chunk.id !== null) chunk.origin = { id: chunk.id, lines: [...chunk.lines] };
    this.drop(chunk);
    this.changed = true;
    return chunk.lines;
  }

  /** Notes that the stored chunk is no longer named by the next index. */
  private drop(chunk: DraftChunk): void {
    if (chunk.id !== null) this.replaced.push(chunk.id);
    chunk.id = null;
    this.changed = true;
  }

  /** Drops a chunk whose lines go into other chunks (split, merged, emptied): it edits nothing. */
  private dissolve(chunk: DraftChunk): void {
    this.drop(chunk);
    delete chunk.origin;
  }

  /** Even pieces of at most `max` lines (each more than `max / 2`, so at least `min`). */
  private split(chunk: DraftChunk): DraftChunk[] {
    this.dissolve(chunk);
    const lines = chunk.lines!;
    const pieces = Math.ceil(lines.length / this.limits.max);
    const result: DraftChunk[] = [];
    for (let p = 0; p < pieces; p++) {
      const from = Math.floor((p * lines.length) / pieces);
      const to = Math.floor(((p + 1) * lines.length) / pieces);
      const part = lines.slice(from, to);
      const fence = p === 0 ? chunk.fence : fenceBetween(this.keyOf(lines[from - 1]!), this.keyOf(lines[from]!));
      result.push({ id: null, fence, count: part.length, lines: part });
    }
    return result;
  }
}

/** A list ordered by rank (lines from `rankLine`). */
export function rankListDraft(index: ChunkIndex, limits: ChunkLimits = DEFAULT_CHUNK_LIMITS): ChunkListDraft {
  return new ChunkListDraft(index, limits);
}

/** A list ordered by user ID (lines from `userLine`). */
export function userListDraft(index: ChunkIndex, limits: ChunkLimits = DEFAULT_CHUNK_LIMITS): ChunkListDraft {
  return new ChunkListDraft(index, limits, userKeyOf);
}

/**
 * Chunks for a sorted list built at once (a bulk load): pieces of `fill` lines, with their fences.
 */
export function chunkSortedLines(
  lines: readonly string[],
  fill: number,
  keyOf: (line: string) => string = identity,
): Array<{ fence: string; lines: string[] }> {
  const chunks: Array<{ fence: string; lines: string[] }> = [];
  for (let from = 0; from < lines.length; from += fill) {
    const fence = from === 0 ? "" : fenceBetween(keyOf(lines[from - 1]!), keyOf(lines[from]!));
    chunks.push({ fence, lines: lines.slice(from, from + fill) });
  }
  return chunks;
}

// ---- patches --------------------------------------------------------------------------------------

/**
 * A chunk edited by a few lines is stored as a PATCH on a chunk it was edited from, not written
 * again whole: its ID names both, `on~patch`, and the patch document lists the lines added ("+")
 * and removed ("-") relative to `on`. Patches have two levels: a LARGE patch on a base
 * (`base~p1`), and SMALL patches on such a patched chunk (`base~p1~p2`). An edit of a chunk is
 * stored as a small patch on its `base~p1` while that holds every difference from it within the
 * small limit, else as a new large patch on its base within the large limit, else the chunk is
 * written whole again (`patchOptions`). So a commit writes a few lines per chunk it touches: the
 * small patch most of the time, the large one now and then, the whole chunk rarely, where one level
 * of patches had to choose between a patch that grows to the limit and frequent whole rewrites.
 * Bases and patches are written once and never changed, like every chunk; a reader reads the
 * documents an ID names (`chunkDocuments`) at once and applies the patches in order.
 *
 * A commit stores all the patches it writes (of both lists) in ONE document, a section each: a
 * patch in an ID is then `doc.section` (`patchInDocument`), so a commit inserts one patch
 * document, not one per chunk it edits, and each patch's document is shared (deleted once no ID
 * names it). Patches written before are whole documents (no section).
 */
export function chunkParts(id: string): { base: string; patch: string | null } {
  const at = id.lastIndexOf("~");
  return at < 0 ? { base: id, patch: null } : { base: id.slice(0, at), patch: id.slice(at + 1) };
}

export function patchedChunkId(base: string, patch: string): string {
  return `${base}~${patch}`;
}

/** The stored documents a chunk ID names: its base, then its patches' documents in the order they apply. */
export function chunkDocuments(id: string): string[] {
  return id.split("~").map((part) => sectionOf(part).doc);
}

const SECTION = ".";

/** A patch stored as section `section` of the document `doc` (a commit's patch document). */
export function patchInDocument(doc: string, section: number): string {
  return `${doc}${SECTION}${section}`;
}

/** Where a part of a chunk ID is stored: a document, and the section of it (null: the whole document). */
export function sectionOf(part: string): { doc: string; section: number | null } {
  const at = part.indexOf(SECTION);
  return at < 0 ? { doc: part, section: null } : { doc: part.slice(0, at), section: Number(part.slice(at + 1)) };
}

export interface PatchLimits {
  /** The most lines a small patch (on `base~p1`) may hold. */
  small: number;
  /** The most lines a large patch (on a base) may hold. */
  large: number;
}

/**
 * The chunks an edit of chunk `id` may be stored as a patch on, in order of preference, each with
 * the most lines that patch may hold: its one-patch-deep ancestor (`base~p1`) with a small patch,
 * then its base with a large one.
 */
export function patchOptions(id: string, limits: PatchLimits): Array<{ on: string; max: number }> {
  const parts = id.split("~");
  const options: Array<{ on: string; max: number }> = [];
  if (parts.length >= 2) options.push({ on: parts.slice(0, 2).join("~"), max: limits.small });
  options.push({ on: parts[0]!, max: limits.large });
  return options;
}

/**
 * The patch turning sorted `base` into sorted `lines`: "+line" added, and each line removed as
 * `removed` writes it ("-line" by default), in order.
 */
export function diffSortedLines(
  base: readonly string[],
  lines: readonly string[],
  removed: (line: string, place: number) => string = (line) => "-" + line,
): string[] {
  const patch: string[] = [];
  let i = 0;
  let j = 0;
  while (i < base.length || j < lines.length) {
    const a = base[i];
    const b = lines[j];
    if (a !== undefined && a === b) {
      i++;
      j++;
    } else if (b === undefined || (a !== undefined && a < b)) {
      patch.push(removed(a!, i));
      i++;
    } else {
      patch.push("+" + b);
      j++;
    }
  }
  return patch;
}

/**
 * A chunk's patch: as `diffSortedLines`, but a line removed is named by its place in `base`
 * ("#" and the 0-based place in base 36) rather than written out: the reader holds `base`, and a
 * commit's patch is mostly pairs of a participant's old and new line, so this halves what it
 * stores. Patches written before hold "-line" entries, which `applyPatch` still reads.
 */
export function diffChunkLines(base: readonly string[], lines: readonly string[]): string[] {
  return diffSortedLines(base, lines, (_line, place) => REMOVED_AT + place.toString(36));
}
const REMOVED_AT = "#";

/** Sorted `base` with a patch from `diffChunkLines` or `diffSortedLines` applied. */
export function applyPatch(base: readonly string[], patch: readonly string[]): string[] {
  const removed = new Set<string>();
  const added: string[] = [];
  for (const entry of patch) {
    if (entry[0] === "-") removed.add(entry.slice(1));
    else if (entry[0] === REMOVED_AT) {
      const line = base[parseInt(entry.slice(1), 36)];
      if (line === undefined) throw new Error(`patch removes line ${entry.slice(1)} of ${base.length}`);
      removed.add(line);
    } else added.push(entry.slice(1));
  }
  const kept = removed.size === 0 ? base : base.filter((line) => !removed.has(line));
  if (added.length === 0) return [...kept];
  const result: string[] = [];
  let i = 0;
  let j = 0;
  while (i < kept.length || j < added.length) {
    if (j >= added.length || (i < kept.length && kept[i]! < added[j]!)) result.push(kept[i++]!);
    else result.push(added[j++]!);
  }
  return result;
}
