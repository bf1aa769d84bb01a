import { Linter } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import { boundaries } from "../../eslint.boundaries.js";

// The layering rules of eslint.config.js on sample imports, at today's paths and at the
// feature-first ones (src/features/<feature>/...), so that moving files keeps them in force.
const linter = new Linter({ configType: "flat" });
const config = [{ files: ["**/*.ts"], languageOptions: { parser: tseslint.parser }, plugins: { "@typescript-eslint": tseslint.plugin } }, ...boundaries];

function violations(filename: string, code: string): string[] {
  return linter.verify(code, config, { filename }).map((m) => `${m.ruleId}: ${m.message}`);
}

describe("layering rules (eslint.boundaries.js)", () => {
  it.each(["src/domain/streak.ts", "src/features/streaks/domain/streak.ts"])("domain code in %s imports only domain code, luxon and big.js", (file) => {
    const allowed = ['import { DateTime } from "luxon";', 'import Big from "big.js";', 'import { a } from "./streak-config.js";'].join("\n");
    expect(violations(file, allowed)).toEqual([]);
    for (const forbidden of [
      'import { createHash } from "node:crypto";',
      'import { users } from "../store/users.js";',
      'import { recordEvent } from "../pipeline/record-event.js";',
      'import { StreakSchema } from "../gen/gamification/v1/streak_pb.js";',
      'import { z } from "zod";',
      'import { x } from "./sub/inner.js";',
    ]) {
      expect(violations(file, forbidden), forbidden).toEqual([expect.stringContaining("Domain code imports only other domain code")]);
    }
  });

  it("domain code reaches another feature's domain, not its store", () => {
    const file = "src/features/streaks/domain/streak.ts";
    expect(violations(file, 'import { p } from "../../points/domain/points.js";')).toEqual([]);
    expect(violations(file, 'import { e } from "../../../engine/domain/event.js";')).toEqual([]);
    expect(violations(file, 'import { s } from "../../points/store/points.js";')).toHaveLength(1);
  });

  it("domain unit tests may also use vitest", () => {
    expect(violations("src/features/streaks/domain/streak.test.ts", 'import { it } from "vitest";\nimport { a } from "./streak.js";')).toEqual([]);
    expect(violations("src/domain/streak.test.ts", 'import { users } from "../store/users.js";')).toHaveLength(1);
  });

  it.each(["src/api/admin-service.ts", "src/features/points/api/points-service.ts", "src/transport/guard.ts"])(
    "API code in %s calls use cases, not the store",
    (file) => {
      expect(violations(file, 'import { findCaller } from "../store/api-keys.js";')).toEqual([expect.stringContaining("API code calls the use cases")]);
      expect(violations(file, 'import { findCaller } from "../../../store/api-keys.js";')).toHaveLength(1);
      // Types may be shared; use cases may be called.
      expect(violations(file, 'import type { Caller } from "../store/api-keys.js";')).toEqual([]);
      expect(violations(file, 'import { callerOfKey } from "../pipeline/admin-api-keys.js";')).toEqual([]);
    },
  );

  it("store and use-case code are not restricted by these rules", () => {
    expect(violations("src/pipeline/users.ts", 'import { users } from "../store/users.js";\nimport { createHash } from "node:crypto";')).toEqual([]);
  });
  it("a feature reaches another feature's use cases, never its store (privacy's erasure excepted)", () => {
    const useCase = "src/features/webhooks/webhook-leaderboards.ts";
    expect(violations(useCase, 'import { a } from "../leaderboards/store/leaderboard-rankings.js";')).toEqual([
      expect.stringContaining("another feature's use cases"),
    ]);
    expect(violations("src/features/webhooks/store/webhook-store.ts", 'import { a } from "../../points/store/x.js";')).toHaveLength(1);
    for (const allowed of [
      'import { a } from "./store/webhook-store.js";',
      'import { a } from "../leaderboards/ranking-updates.js";',
      'import { a } from "../../engine/store/database.js";',
      'import { a } from "../../workers/store/leases.js";',
      'import type { A } from "../leaderboards/store/leaderboard-rankings.js";',
    ]) {
      expect(violations(useCase, allowed), allowed).toEqual([]);
    }
    expect(violations("src/features/privacy/erase-user.ts", 'import { a } from "../leaderboards/store/leaderboard-rankings.js";')).toEqual([]);
  });
});
