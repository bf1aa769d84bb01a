// The README's five-minute tour, run as written against a fresh server so that it cannot rot: its
// ```sh tour blocks in order in one bash (they share the `api` helper and the IDs they capture),
// with only GAMIFICATION_URL and ADMIN_KEY set from outside as the tour's readers set them; then its
// ```ts tour block with tsx from the clone's root, whose output must be the README's
// ```text tour-output block exactly.
import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_KEY, startTestServer, type TestServer } from "../helpers/server.js";

const run = promisify(execFile);
const repo = join(import.meta.dirname, "../..");
/** Printed between blocks, so that each block's output can be told apart. */
const BLOCK_MARK = "@@readme-tour-block@@";

interface Block {
  kind: "sh" | "ts" | "output";
  code: string;
}

/** The tour's marked blocks, in README order. */
async function tourBlocks(): Promise<Block[]> {
  const readme = await readFile(join(repo, "README.md"), "utf8");
  const kinds = { "sh tour": "sh", "ts tour": "ts", "text tour-output": "output" } as const;
  return [...readme.matchAll(/^```(sh tour|ts tour|text tour-output)\n([\s\S]*?)^```$/gm)].map((m) => ({
    kind: kinds[m[1] as keyof typeof kinds],
    code: m[2]!,
  }));
}

let server: TestServer;
let blocks: Block[];
/** The output of each shell block (its lines), in order. */
let shellOutputs: string[][] = [];

beforeAll(async () => {
  [server, blocks] = await Promise.all([startTestServer(), tourBlocks()]);
}, 120_000);
afterAll(() => server?.close());

const env = () => ({ ...process.env, GAMIFICATION_URL: server.baseUrl, ADMIN_KEY });

describe("the README's five-minute tour", () => {
  it("has its shell steps, then one TypeScript step and the output it shows", () => {
    expect(blocks.filter((b) => b.kind === "sh").length).toBeGreaterThanOrEqual(6);
    // Shell blocks first, then the TypeScript block and its output: the order a reader runs them.
    expect(blocks.map((b) => b.kind).join(",")).toMatch(/^(sh,)+ts,output$/);
  });

  it("runs every shell command successfully, in order, with curl", { timeout: 120_000 }, async () => {
    const script = [
      "set -euo pipefail",
      // Names the command that failed (set -e stops at the first one).
      `trap 'echo "tour command failed (exit $?): $BASH_COMMAND" >&2' ERR`,
      ...blocks.filter((b) => b.kind === "sh").flatMap((b) => [`echo '${BLOCK_MARK}'`, b.code]),
    ].join("\n");
    const result = await run("bash", ["-c", script], { cwd: repo, env: env() }).catch((error) => {
      throw new Error(`the tour failed:\n${error.stderr}\n--- output ---\n${error.stdout}`);
    });
    shellOutputs = result.stdout
      .split(`${BLOCK_MARK}\n`)
      .slice(1)
      .map((out) => out.split("\n").filter((line) => line.trim() !== ""));
    expect(shellOutputs).toHaveLength(blocks.filter((b) => b.kind === "sh").length);
    // Every answer the tour prints is JSON (the helper prints each answer on a line of its own).
    for (const line of shellOutputs.flat()) expect(() => JSON.parse(line), line).not.toThrow();
  });

  it("reads back with curl what the events did", () => {
    // The last shell block: alice's points, alice's achievements, bob's streak, bob's lessons, the leaderboard.
    const reads = shellOutputs.at(-1)!.map((line) => JSON.parse(line));
    expect(reads).toHaveLength(5);
    const [points, achievements, streak, metric, leaderboard] = reads;
    expect(points).toMatchObject({ key: "xp", total: 120, level: { key: "silver" } });
    expect(achievements).toEqual([expect.objectContaining({ key: "ten-lessons", achievedAt: expect.any(String), completions: 1, rarity: 50 })]);
    expect(streak).toMatchObject({ length: 1, frequency: "daily" });
    expect(metric).toMatchObject({ key: "lessons", current: 5 });
    expect(leaderboard.rankings.map((r: any) => [r.userId, r.rank, r.value])).toEqual([
      ["alice", 1, 120],
      ["bob", 2, 50],
    ]);
  });

  it("reads the same with the TypeScript client, printing what the README shows", { timeout: 180_000 }, async () => {
    const code = blocks.find((b) => b.kind === "ts")!.code;
    const expected = blocks.find((b) => b.kind === "output")!.code;
    // The README has readers save it as tour.ts at the clone's root; a name of its own here.
    const file = join(repo, `.readme-tour-${process.pid}.ts`);
    await writeFile(file, code);
    try {
      const { stdout } = await run(join(repo, "node_modules/.bin/tsx"), [file], { cwd: repo, env: env() });
      expect(stdout).toBe(expected);
    } finally {
      await rm(file, { force: true });
    }
  });
});
