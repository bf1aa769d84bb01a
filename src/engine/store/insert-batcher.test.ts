import { MongoClient } from "mongodb";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { isDuplicateKeyError } from "./database.js";
import { batchInserts } from "./insert-batcher.js";

let client: MongoClient;
const commands: string[] = [];

beforeAll(async () => {
  client = new MongoClient(inject("mongoUri"), { monitorCommands: true });
  client.on("commandStarted", (e) => commands.push(e.commandName));
  await client.connect();
});
afterAll(async () => {
  await client
    ?.db(`batcher_${process.pid}`)
    .dropDatabase()
    .catch(() => undefined);
  await client?.close();
});

describe("batched inserts", () => {
  it("send the inserts asked for at once as one insertMany, and fail only the caller whose _id is taken", async () => {
    const collection = client.db(`batcher_${process.pid}`).collection<{ _id: string }>("docs");
    await collection.insertOne({ _id: "taken" });
    const insert = batchInserts(collection);
    commands.length = 0;
    const results = await Promise.allSettled([insert([{ _id: "a" }, { _id: "b" }]), insert([{ _id: "taken" }]), insert([]), insert([{ _id: "c" }])]);
    expect(commands.filter((c) => c === "insert")).toHaveLength(1);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(isDuplicateKeyError((results[1] as PromiseRejectedResult).reason)).toBe(true);
    expect((await collection.find({}).toArray()).map((d) => d._id).sort()).toEqual(["a", "b", "c", "taken"]);
  });
});
