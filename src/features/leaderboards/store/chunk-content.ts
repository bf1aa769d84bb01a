import { brotliCompressSync, brotliDecompressSync, constants } from "node:zlib";
import { Binary } from "mongodb";

/**
 * How a ranking chunk's lines are stored (src/features/leaderboards/store/leaderboard-rankings.ts): joined by "\n" in
 * `lines`, or, when that is smaller, brotli-compressed in `packed`. A chunk's lines are sorted, so
 * neighbours share long prefixes (value codes, times, user ID schemes) and compress to a third or
 * less; a commit's bytes are mostly such lines. Documents written before compression hold `lines`
 * and read as before.
 */
export interface ChunkContent {
  lines?: string;
  packed?: Binary;
}

/** Below this many characters compression saves too little to be worth a field of its own. */
const COMPRESS_FROM = 64;
/**
 * Quality 3: on a commit's lines (about 500 characters per call, ten calls per full-profile event)
 * 1.3 % more bytes than quality 5 (`bench/ranking-bytes.ts`: 4,018 against 3,968 per event) in two
 * thirds of the time (25 against 36 µs per call); quality 2 costs 6 % more bytes.
 */
const QUALITY = 3;

export function chunkContent(lines: readonly string[]): ChunkContent {
  const text = lines.join("\n");
  if (text.length < COMPRESS_FROM) return { lines: text };
  const packed = brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: text.length } });
  return packed.length < Buffer.byteLength(text) ? { packed: new Binary(packed) } : { lines: text };
}

export function linesOfContent(content: ChunkContent): string[] {
  const text = content.packed ? brotliDecompressSync(content.packed.buffer).toString("utf8") : (content.lines ?? "");
  return text === "" ? [] : text.split("\n");
}

/**
 * Several patches in one document (a commit's patches: `patchInDocument` in the domain): their
 * lines, the sections apart by an empty line (no patch line is empty, and no section is).
 */
export function sectionsContent(sections: ReadonlyArray<readonly string[]>): ChunkContent {
  return chunkContent(sections.flatMap((lines, i) => (i === 0 ? [...lines] : ["", ...lines])));
}

/** The lines of one section of such a document. */
export function sectionLines(content: ChunkContent, section: number): string[] {
  const lines = linesOfContent(content);
  let from = 0;
  for (let s = 0; s < section; s++) {
    from = lines.indexOf("", from) + 1;
    if (from === 0) throw new Error(`no section ${section} in a patch document of ${s + 1}`);
  }
  const end = lines.indexOf("", from);
  return lines.slice(from, end < 0 ? lines.length : end);
}

/** The same for one field: the joined lines, or their compressed form when that is smaller. */
export function packLines(lines: readonly string[]): string | Binary {
  const content = chunkContent(lines);
  return content.packed ?? content.lines ?? "";
}

export function unpackLines(value: string | Binary | undefined): string[] {
  return value instanceof Binary ? linesOfContent({ packed: value }) : linesOfContent({ lines: value ?? "" });
}
