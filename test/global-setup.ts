// Vitest global setup: one database server for the whole test run, shared by every test file
// (each file works in its own database, see helpers/database.ts).
//
// By default this starts FerretDB in a fresh temporary directory. Setting TEST_MONGODB_URI runs
// the same tests against an existing server instead, e.g. a real MongoDB replica set.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startFerretDb } from "../src/server/embedded-db.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Connection string of the test run's database server, without a database name. */
    mongoUri: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env.TEST_MONGODB_URI;
  if (external) {
    project.provide("mongoUri", external);
    return async () => {};
  }

  const dataDir = await mkdtemp(join(tmpdir(), "gamification-test-"));
  try {
    const database = await startFerretDb({ dataDir });
    project.provide("mongoUri", database.uri);
    return async () => {
      try {
        await database.stop();
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
