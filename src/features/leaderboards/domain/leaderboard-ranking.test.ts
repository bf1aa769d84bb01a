import Big from "big.js";
import { describe, expect, it } from "vitest";
import {
  applyIndexPatch,
  applyPatch,
  chunkAtPosition,
  chunkFor,
  chunkDocuments,
  chunkParts,
  chunkSortedLines,
  compareStandings,
  decodeValue,
  diffIndexLines,
  diffChunkLines,
  diffSortedLines,
  emptyIndex,
  encodeValue,
  entryThreshold,
  escapeUserId,
  fenceBetween,
  indexesOfLines,
  indexLines,
  groupKey,
  packIndex,
  parseRankLine,
  patchedChunkId,
  patchInDocument,
  patchOptions,
  sectionOf,
  rankLine,
  rankLineOfUserLine,
  rankListDraft,
  rankWithin,
  unescapeUserId,
  unpackIndex,
  userKeyOf,
  userLine,
  userListDraft,
  userProbe,
  type ChunkIndex,
  type ChunkLimits,
  type ChunkListDraft,
  type Standing,
} from "./leaderboard-ranking.js";

/** A small deterministic random source (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const T0 = Date.parse("2026-01-05T00:00:00Z");
const standing = (userId: string, value: string, secondsAfter = 0): Standing => ({ userId, value, reachedAt: new Date(T0 + secondsAfter * 1000) });
const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);

describe("value codes sort in descending order of the value", () => {
  const values = [
    "0",
    "-0",
    "1",
    "-1",
    "10",
    "9.99",
    "0.1",
    "0.12",
    "0.123",
    "0.1200",
    "-0.12",
    "-0.123",
    "123456789012345678901234567890",
    "-123456789012345678901234567890",
    "5e-324",
    "-5e-324",
    "1.7976931348623157e308",
    "0.000001",
    "100",
    "99",
    "1000000",
    "-1000000",
    "2.5",
    "-2.5",
  ];
  it("orders like big.js and decodes exactly", () => {
    const byCode = [...values].sort((a, b) => (encodeValue(a) < encodeValue(b) ? -1 : encodeValue(a) > encodeValue(b) ? 1 : 0));
    for (let i = 1; i < byCode.length; i++) expect(new Big(byCode[i - 1]!).gte(byCode[i]!)).toBe(true);
    for (const v of values) expect(decodeValue(encodeValue(v)).value).toBe(new Big(v).toFixed());
    expect(encodeValue("0.1200")).toBe(encodeValue("0.12"));
    expect(encodeValue("-0")).toBe(encodeValue("0"));
  });

  it("agrees with big.js on thousands of random decimals", () => {
    const next = random(1);
    const draw = () => {
      const digits = Math.floor(next() * 1e6).toString();
      const scale = Math.floor(next() * 12) - 6;
      return new Big(digits)
        .times(new Big(10).pow(scale))
        .times(next() < 0.3 ? -1 : 1)
        .toFixed();
    };
    for (let i = 0; i < 5000; i++) {
      const a = draw();
      const b = draw();
      const byCode = sign(encodeValue(a) < encodeValue(b) ? -1 : encodeValue(a) > encodeValue(b) ? 1 : 0);
      expect(byCode).toBe(new Big(b).cmp(a));
      expect(decodeValue(encodeValue(a)).value).toBe(a);
    }
  });

  it("refuses values beyond the supported exponents", () => {
    expect(() => encodeValue("1e499")).toThrow(RangeError);
    expect(() => encodeValue("-1e-502")).toThrow(RangeError);
    for (const edge of ["1e498", "-1e498", "1e-501", "-1e-501"]) expect(decodeValue(encodeValue(edge)).value).toBe(new Big(edge).toFixed());
  });
});

describe("user IDs", () => {
  it("escape reversibly, keeping their order, with no unit at or below U+000B left", () => {
    const next = random(2);
    const alphabet = ["\x00", "\x01", "\x0a", "\x0b", "\x0c", "0", ";", "a", "z", "é", "\u{1F600}", "%", " ", "~"];
    const draw = () => Array.from({ length: Math.floor(next() * 5) }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");
    for (let i = 0; i < 5000; i++) {
      const a = draw();
      const b = draw();
      expect(unescapeUserId(escapeUserId(a))).toBe(a);
      // eslint-disable-next-line no-control-regex -- the escaped form must contain no control characters
      expect(/[\x00-\x0a]/.test(escapeUserId(a))).toBe(false);
      expect(sign(escapeUserId(a) < escapeUserId(b) ? -1 : escapeUserId(a) > escapeUserId(b) ? 1 : 0)).toBe(sign(a < b ? -1 : a > b ? 1 : 0));
    }
  });
});

describe("lines", () => {
  it("sort as strings exactly as compareStandings orders standings (ties included)", () => {
    const next = random(3);
    const ids = ["a", "b", "ab", "a\nb", "a\x01", "ü", "user-10", "user-9"];
    const values = ["0", "1", "1.5", "-1", "10", "0.001"];
    const draw = (): Standing => standing(ids[Math.floor(next() * ids.length)]!, values[Math.floor(next() * values.length)]!, Math.floor(next() * 3));
    for (let i = 0; i < 5000; i++) {
      const a = draw();
      const b = draw();
      const la = rankLine(a);
      const lb = rankLine(b);
      expect(sign(la < lb ? -1 : la > lb ? 1 : 0)).toBe(sign(compareStandings(a, b)));
      expect(parseRankLine(la)).toEqual({ ...a, value: new Big(a.value).toFixed() });
      expect(rankLineOfUserLine(userLine(la))).toBe(la);
      expect(userKeyOf(userLine(la))).toBe(userProbe(a.userId));
    }
  });

  it("tie rule: higher value, then earlier time reaching it, then user ID", () => {
    const list = [standing("c", "5", 10), standing("a", "5", 20), standing("b", "5", 10), standing("z", "7", 30), standing("y", "-1", 0)];
    expect([...list].sort(compareStandings).map((s) => s.userId)).toEqual(["z", "b", "c", "a", "y"]);
    expect(
      list
        .map(rankLine)
        .sort()
        .map((l) => parseRankLine(l).userId),
    ).toEqual(["z", "b", "c", "a", "y"]);
  });

  it("refuses times the line cannot hold", () => {
    expect(() => rankLine({ userId: "u", value: "1", reachedAt: new Date(-1) })).toThrow(RangeError);
  });
});

describe("index helpers", () => {
  it("fenceBetween is the shortest prefix of b above a", () => {
    expect(fenceBetween("abc", "abd")).toBe("abd");
    expect(fenceBetween("abc", "abcx")).toBe("abcx");
    expect(fenceBetween("ab", "b")).toBe("b");
    expect(fenceBetween("1490", "1498zzz")).toBe("1498");
  });

  it("chunkFor finds the last fence at most the key; chunkAtPosition the chunk of a position", () => {
    expect(chunkFor([], "x")).toBe(-1);
    expect(chunkFor(["", "m", "t"], "a")).toBe(0);
    expect(chunkFor(["", "m", "t"], "m")).toBe(1);
    expect(chunkFor(["", "m", "t"], "s")).toBe(1);
    expect(chunkFor(["", "m", "t"], "zz")).toBe(2);
    expect(chunkAtPosition([3, 2, 4], 1)).toEqual({ chunk: 0, before: 0 });
    expect(chunkAtPosition([3, 2, 4], 4)).toEqual({ chunk: 1, before: 3 });
    expect(chunkAtPosition([3, 2, 4], 9)).toEqual({ chunk: 2, before: 5 });
    expect(chunkAtPosition([3, 2, 4], 10)).toBeNull();
    expect(chunkAtPosition([3, 2, 4], 0)).toBeNull();
  });

  it("packs and unpacks", () => {
    const index: ChunkIndex = { ids: ["Ra", "Rb", "Rc"], fences: ["", "1497", "2"], counts: [3, 250, 1000] };
    expect(unpackIndex(packIndex(index))).toEqual(index);
    expect(unpackIndex(packIndex(emptyIndex()))).toEqual(emptyIndex());
    expect(unpackIndex(packIndex({ ids: ["Ra"], fences: [""], counts: [1] }))).toEqual({ ids: ["Ra"], fences: [""], counts: [1] });
  });
});

/** The store's job in memory: chunks by ID, an index, and commits through a draft. */
class MemoryList {
  index: ChunkIndex = emptyIndex();
  readonly stored = new Map<string, string[]>();
  private id = 0;
  maxChunks = 0;
  /** Written chunks that named the stored chunk they edit (what the store writes as a patch). */
  edits = 0;
  constructor(
    readonly make: (index: ChunkIndex) => ChunkListDraft,
    readonly keyOf: (line: string) => string,
  ) {}

  change(apply: (draft: ChunkListDraft) => void, touched: string[]): ChunkListDraft {
    const draft = this.make(this.index);
    for (const id of draft.missingFor(touched.map(this.keyOf))) draft.load(id, [...this.stored.get(id)!]);
    apply(draft);
    for (let needs = draft.rebalance(); needs.length > 0; needs = draft.rebalance()) for (const id of needs) draft.load(id, [...this.stored.get(id)!]);
    const { index, written } = draft.finish(() => `c${++this.id}`);
    const origins = written.flatMap((chunk) => (chunk.origin ? [chunk.origin] : []));
    expect(new Set(origins.map((o) => o.id)).size).toBe(origins.length);
    for (const origin of origins) {
      // The chunk as stored, which this commit replaces; the patch from it gives the new lines.
      expect(origin.lines).toEqual(this.stored.get(origin.id));
      expect(draft.replaced).toContain(origin.id);
    }
    for (const chunk of written) if (chunk.origin) expect(applyPatch(chunk.origin.lines, diffChunkLines(chunk.origin.lines, chunk.lines))).toEqual(chunk.lines);
    this.edits += origins.length;
    for (const id of draft.replaced) this.stored.delete(id);
    for (const chunk of written) this.stored.set(chunk.id, chunk.lines);
    this.index = index;
    this.maxChunks = Math.max(this.maxChunks, index.ids.length);
    return draft;
  }

  lines(): string[] {
    return this.index.ids.flatMap((id) => this.stored.get(id)!);
  }

  /** Every chunk is within the limits (unless it is the only one) and every line is where its fence says. */
  check(limits: ChunkLimits): void {
    expect(new Set(this.stored.keys())).toEqual(new Set(this.index.ids));
    if (this.index.ids.length > 0) expect(this.index.fences[0]).toBe("");
    this.index.ids.forEach((id, i) => {
      const lines = this.stored.get(id)!;
      expect(lines.length).toBe(this.index.counts[i]);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.length).toBeLessThanOrEqual(limits.max);
      if (this.index.ids.length > 1) expect(lines.length).toBeGreaterThanOrEqual(limits.min);
      expect([...lines].sort()).toEqual(lines);
      for (const line of lines) expect(chunkFor(this.index.fences, this.keyOf(line))).toBe(i);
    });
  }
}

describe("ChunkListDraft against a sorted array", () => {
  it.each<[string, ChunkLimits, number]>([
    ["tiny chunks", { max: 4, min: 2 }, 11],
    ["small chunks", { max: 16, min: 4 }, 12],
    ["min at half of max", { max: 6, min: 3 }, 13],
  ])("%s: random inserts, moves and removals", (_name, limits, seed) => {
    const next = random(seed);
    const ranks = new MemoryList(
      (i) => rankListDraft(i, limits),
      (l) => l,
    );
    const users = new MemoryList((i) => userListDraft(i, limits), userKeyOf);
    const truth = new Map<string, Standing>();
    for (let step = 0; step < 1500; step++) {
      const userId = `u${Math.floor(next() * 120)}`;
      const before = truth.get(userId);
      const remove = before !== undefined && next() < 0.15;
      const after = remove ? undefined : standing(userId, String(Math.floor(next() * 20) - 3), step);
      const oldLine = before && rankLine(before);
      const newLine = after && rankLine(after);
      const expectedBefore = before ? [...truth.values()].sort(compareStandings).indexOf(before) + 1 : null;
      let positionBefore: number | null = null;
      ranks.change(
        (d) => {
          positionBefore = oldLine ? d.positionOf(oldLine) : null;
          if (oldLine) d.remove(oldLine);
          if (newLine) d.insert(newLine);
        },
        [oldLine, newLine].filter((l): l is string => !!l),
      );
      users.change(
        (d) => {
          if (oldLine) expect(d.findByPrefix(userProbe(userId))).toBe(userLine(oldLine));
          if (oldLine) d.remove(userLine(oldLine));
          if (newLine) d.insert(userLine(newLine));
        },
        [oldLine, newLine].filter((l): l is string => !!l).map(userLine),
      );
      expect(positionBefore).toBe(expectedBefore);
      if (after) truth.set(userId, after);
      else truth.delete(userId);
      if (step % 50 === 0 || step === 1499) {
        ranks.check(limits);
        users.check(limits);
        expect(ranks.lines().map(parseRankLine)).toEqual([...truth.values()].sort(compareStandings).map((s) => ({ ...s, value: new Big(s.value).toFixed() })));
        expect(users.lines().map(rankLineOfUserLine).sort()).toEqual(ranks.lines());
      }
    }
    // Remove everyone: the lists empty out completely.
    for (const s of [...truth.values()]) {
      const line = rankLine(s);
      ranks.change((d) => d.remove(line), [line]);
      users.change((d) => d.remove(userLine(line)), [userLine(line)]);
    }
    expect(ranks.index).toEqual(emptyIndex());
    expect(ranks.maxChunks).toBeGreaterThan(5); // the lists did split into many chunks and merge back
    expect(ranks.edits).toBeGreaterThan(100); // and many commits only edited a chunk (patches)
    expect(users.stored.size).toBe(0);
  });

  it("positions and lines at positions, across chunks", () => {
    const limits = { max: 4, min: 2 };
    const ranks = new MemoryList(
      (i) => rankListDraft(i, limits),
      (l) => l,
    );
    const all = Array.from({ length: 30 }, (_, i) => standing(`u${String(i).padStart(2, "0")}`, String(i % 7)));
    for (const s of all) ranks.change((d) => d.insert(rankLine(s)), [rankLine(s)]);
    const sorted = [...all].sort(compareStandings).map(rankLine);
    const draft = rankListDraft(ranks.index, limits);
    for (const id of ranks.index.ids) draft.load(id, ranks.stored.get(id)!);
    sorted.forEach((line, i) => {
      expect(draft.positionOf(line)).toBe(i + 1);
      expect(draft.lineAt(i + 1)).toBe(line);
    });
    expect(draft.lineAt(31)).toBeNull();
    expect(draft.positionOf(rankLine(standing("nobody", "3")))).toBeNull();
  });

  it("a chunk that is needed but not loaded is an error, not a wrong answer", () => {
    const limits = { max: 4, min: 2 };
    const ranks = new MemoryList(
      (i) => rankListDraft(i, limits),
      (l) => l,
    );
    for (let i = 0; i < 10; i++) ranks.change((d) => d.insert(rankLine(standing(`u${i}`, String(i)))), [rankLine(standing(`u${i}`, String(i)))]);
    const draft = rankListDraft(ranks.index, limits);
    expect(() => draft.positionOf(rankLine(standing("u3", "3")))).toThrow(/not loaded/);
    expect(() => draft.load(ranks.index.ids[0]!, [])).toThrow(/holds 0 lines/);
  });

  it("bulk chunks match what single inserts produce, line for line", () => {
    const lines = Array.from({ length: 57 }, (_, i) => rankLine(standing(`u${i}`, String(i % 9), i))).sort();
    const chunks = chunkSortedLines(lines, 6);
    expect(chunks.flatMap((c) => c.lines)).toEqual(lines);
    chunks.forEach((c, i) => {
      expect(
        chunkFor(
          chunks.map((x) => x.fence),
          c.lines[0]!,
        ),
      ).toBe(i);
      expect(
        chunkFor(
          chunks.map((x) => x.fence),
          c.lines.at(-1)!,
        ),
      ).toBe(i);
    });
  });
});

describe("patches", () => {
  it("a patch from diffSortedLines turns the base into the lines, for random sorted lists", () => {
    const next = random(7);
    for (let round = 0; round < 500; round++) {
      const pool = Array.from({ length: 40 }, (_, i) => `line-${String(i).padStart(2, "0")}`);
      const pick = () => pool.filter(() => next() < 0.5);
      const [base, lines] = [pick(), pick()];
      const patch = diffSortedLines(base, lines);
      expect(applyPatch(base, patch)).toEqual(lines);
      const removed = base.filter((l) => !lines.includes(l));
      const added = lines.filter((l) => !base.includes(l));
      expect(patch.length).toBe(removed.length + added.length);
      expect(patch.filter((e) => e.startsWith("-")).map((e) => e.slice(1))).toEqual(removed);
    }
    expect(diffSortedLines(["a", "c"], ["a", "b", "c"])).toEqual(["+b"]);
  });

  it("a chunk patch from diffChunkLines names removed lines by their place in the base, and applies as a patch of whole lines does", () => {
    const next = random(11);
    for (let round = 0; round < 500; round++) {
      const pool = Array.from({ length: 80 }, (_, i) => `line-${String(i).padStart(2, "0")}`);
      const pick = () => pool.filter(() => next() < 0.5);
      const [base, lines] = [pick(), pick()];
      const patch = diffChunkLines(base, lines);
      expect(applyPatch(base, patch)).toEqual(lines);
      expect(patch.length).toBe(diffSortedLines(base, lines).length);
      expect(patch.filter((e) => e.startsWith("#")).map((e) => base[parseInt(e.slice(1), 36)])).toEqual(base.filter((l) => !lines.includes(l)));
    }
    const base = Array.from({ length: 40 }, (_, i) => `u${String(i).padStart(2, "0")}`);
    // u37 (place 37, "11" in base 36) leaves, u37b arrives: no removed line is written out.
    expect(diffChunkLines(base, [...base.slice(0, 37), "u37b", ...base.slice(38)])).toEqual(["#11", "+u37b"]);
    expect(() => applyPatch(["a"], ["#1"])).toThrow();
  });

  it("patches index lines by entry: a changed entry is one line, and old patches of whole lines apply the same", () => {
    const rank = { ids: ["R1", "R2", "R3"], fences: ["", "m", "t"], counts: [5, 6, 7] };
    const users = { ids: ["U1"], fences: [""], counts: [18] };
    const base = indexLines(rank, users);
    // R2 patched (new ID and count), R3 merged away, a new chunk after R1.
    const next = indexLines({ ids: ["R1", "R4", "R2~P"], fences: ["", "g", "m"], counts: [5, 3, 12] }, users);
    const patch = diffIndexLines(base, next);
    expect(patch.filter((l) => l.startsWith("+")).length).toBe(2); // the new chunk and R2's entry
    expect(patch.filter((l) => l.startsWith("-")).length).toBe(1); // R3
    expect(applyIndexPatch(base, patch)).toEqual(next);
    expect(applyIndexPatch(base, diffSortedLines(base, next))).toEqual(next);
    expect(indexesOfLines(applyIndexPatch(base, patch)).rank.ids).toEqual(["R1", "R4", "R2~P"]);
    expect(applyPatch(["a", "c"], [])).toEqual(["a", "c"]);
  });

  it("names a patched chunk by its base and patch", () => {
    expect(chunkParts("Rabc")).toEqual({ base: "Rabc", patch: null });
    expect(chunkParts(patchedChunkId("Rabc", "Rdef"))).toEqual({ base: "Rabc", patch: "Rdef" });
    // A small patch on a patched chunk: the chunk it patches is the patched one.
    expect(chunkParts("Rabc~Rdef~Rghi")).toEqual({ base: "Rabc~Rdef", patch: "Rghi" });
    expect(chunkDocuments("Rabc~Rdef~Rghi")).toEqual(["Rabc", "Rdef", "Rghi"]);
    // Patches in sections of a commit's patch document: the IDs name the document.
    const patched = patchedChunkId(patchedChunkId("Rabc", patchInDocument("Rdef", 0)), patchInDocument("Rghi", 3));
    expect(patched).toBe("Rabc~Rdef.0~Rghi.3");
    expect(chunkParts(patched)).toEqual({ base: "Rabc~Rdef.0", patch: "Rghi.3" });
    expect(chunkDocuments(patched)).toEqual(["Rabc", "Rdef", "Rghi"]);
    expect(sectionOf("Rghi.3")).toEqual({ doc: "Rghi", section: 3 });
    expect(sectionOf("Rghi")).toEqual({ doc: "Rghi", section: null });
    expect(patchOptions(patched, { small: 1, large: 2 })).toEqual([
      { on: "Rabc~Rdef.0", max: 1 },
      { on: "Rabc", max: 2 },
    ]);
  });

  it("patches an edit small on its one-patch-deep ancestor, else large on its base", () => {
    const limits = { small: 4, large: 32 };
    expect(patchOptions("Rabc", limits)).toEqual([{ on: "Rabc", max: 32 }]);
    expect(patchOptions("Rabc~Rdef", limits)).toEqual([
      { on: "Rabc~Rdef", max: 4 },
      { on: "Rabc", max: 32 },
    ]);
    expect(patchOptions("Rabc~Rdef~Rghi", limits)).toEqual([
      { on: "Rabc~Rdef", max: 4 },
      { on: "Rabc", max: 32 },
    ]);
  });

  it("a chunk only edited names its origin; a split, merged or emptied one does not", () => {
    const limits = { max: 4, min: 2 };
    const lines = ["a", "b", "c", "d", "e", "f", "g", "h"];
    const stored = new Map([
      ["c1", lines.slice(0, 4)],
      ["c2", lines.slice(4)],
    ]);
    const index = { ids: ["c1", "c2"], fences: ["", "e"], counts: [4, 4] };
    const run = (apply: (draft: ChunkListDraft) => void) => {
      const draft = rankListDraft(index, limits);
      for (const [id, l] of stored) draft.load(id, [...l]);
      apply(draft);
      expect(draft.rebalance()).toEqual([]);
      let n = 0;
      return draft.finish(() => `n${++n}`).written;
    };
    // Edited in place: the written chunk names c1 as it was stored.
    expect(run((d) => (d.remove("b"), d.insert("bb")))).toEqual([
      { id: "n1", lines: ["a", "bb", "c", "d"], origin: { id: "c1", lines: ["a", "b", "c", "d"] } },
    ]);
    // Grown past max: split into two new chunks, neither an edit.
    expect(run((d) => d.insert("ab")).every((c) => c.origin === undefined)).toBe(true);
    // Shrunk below min: merged with its neighbour, not an edit.
    expect(run((d) => (d.remove("a"), d.remove("b"), d.remove("c"))).every((c) => c.origin === undefined)).toBe(true);
  });
});

describe("indexes as lines", () => {
  it("lists both indexes in index order, sorted, and reads them back, whatever units fences hold", () => {
    // User-list fences hold U+0001 (the user separator) and escaped units; rank fences value codes.
    const users = { ids: ["U1", "U2~U9", "U3", "U4"], fences: ["", "al\x01x", "al\x0b0", "b\x01"], counts: [10, 20, 30, 40] };
    const rank = { ids: ["R1", "R2"], fences: ["", rankLine({ userId: "z\x00y", value: "5", reachedAt: new Date(0) })], counts: [7, 8] };
    const lines = indexLines(rank, users);
    expect([...lines].sort()).toEqual(lines);
    expect(lines.every((line) => !line.includes("\n"))).toBe(true);
    expect(indexesOfLines(lines)).toEqual({ rank, users });
    expect(indexesOfLines(indexLines(emptyIndex(), emptyIndex()))).toEqual({ rank: emptyIndex(), users: emptyIndex() });
  });

  it("an index patched with the entries that changed reads as the new index, for random edits", () => {
    const next = random(11);
    const fences = (n: number) => ["", ...Array.from({ length: n - 1 }, (_, i) => `f${String(i).padStart(3, "0")}\x01${next() < 0.3 ? "\x0b1" : ""}`)].sort();
    for (let round = 0; round < 200; round++) {
      const make = (prefix: string, n: number) => {
        const f = fences(n);
        return { ids: f.map((_, i) => `${prefix}${i}`), fences: f, counts: f.map(() => 1 + Math.floor(next() * 1000)) };
      };
      const base = { rank: make("R", 1 + Math.floor(next() * 30)), users: make("U", 1 + Math.floor(next() * 30)) };
      const edited = structuredClone(base);
      for (const index of [edited.rank, edited.users]) {
        const i = Math.floor(next() * index.ids.length);
        index.ids[i] = `${index.ids[i]}~P${round}`;
        index.counts[i] = index.counts[i]! + 1;
      }
      const baseLines = indexLines(base.rank, base.users);
      const patch = diffSortedLines(baseLines, indexLines(edited.rank, edited.users));
      expect(patch.length).toBe(4); // one entry changed in each list: removed and added
      expect(indexesOfLines(applyPatch(baseLines, patch))).toEqual(edited);
    }
  });
});

describe("ranks within maxParticipants, thresholds and groups", () => {
  /** Positions of everyone, through a draft, as the store computes them. */
  function positions(standings: Standing[]): Map<string, number> {
    const draft = rankListDraft(emptyIndex(), { max: 4, min: 2 });
    for (const s of standings) draft.insert(rankLine(s));
    return new Map(standings.map((s) => [s.userId, draft.positionOf(rankLine(s))!]));
  }

  it("ranks only the first N; the (N+1)th has no rank", () => {
    expect(rankWithin(3, 3)).toBe(3);
    expect(rankWithin(4, 3)).toBeNull();
    expect(rankWithin(null, 3)).toBeNull();
  });

  it("a newcomer equal to the lowest ranked value does not enter; beating it does", () => {
    const max = 3;
    const board = [standing("a", "30", 0), standing("b", "20", 1), standing("c", "10", 2)];
    const threshold = entryThreshold([...board].sort(compareStandings)[max - 1]!.value);
    expect(threshold).toBe("10");
    // Reaching 10 now (later than c did) puts the newcomer 4th: unranked.
    expect(rankWithin(positions([...board, standing("d", threshold, 3)]).get("d")!, max)).toBeNull();
    // 10.5 beats it: 3rd, and c drops out.
    const after = positions([...board, standing("d", "10.5", 3)]);
    expect(rankWithin(after.get("d")!, max)).toBe(3);
    expect(rankWithin(after.get("c")!, max)).toBeNull();
    // While the leaderboard has room, any value enters: the threshold is 0.
    expect(entryThreshold(null)).toBe("0");
  });

  it("breakdown groups are separate rankings, keyed by the user's values in the leaderboard's order", () => {
    expect(groupKey([])).toBe("");
    expect(groupKey(["London", "pro"])).toBe('["London","pro"]');
    expect(groupKey(["pro", "London"])).not.toBe(groupKey(["London", "pro"]));
    expect(groupKey(["a,b"])).not.toBe(groupKey(["a", "b"]));
    expect(groupKey(["London", undefined])).toBeNull();
    // Each group ranks on its own: both leaders are 1st.
    const london = positions([standing("a", "5"), standing("b", "9")]);
    const paris = positions([standing("c", "1")]);
    expect([london.get("b"), london.get("a"), paris.get("c")]).toEqual([1, 2, 1]);
  });
});
