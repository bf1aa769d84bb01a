import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { runJsonLines, venvPython } from "./programs.js";
import type { WebhookReceiver } from "./webhook-receiver.js";

/** What the published Python client's model for a webhook body's type made of it (test/published-python-client/webhooks.py). */
export interface ModelOutcome {
  type: string;
  /** The client's model class; null when it has none for the type. */
  model: string | null;
  error: string | null;
}

/**
 * Parses webhook bodies with the reference's published Python client (`trophy`, its
 * `Webhooks*Payload` models, in the venv of scripts/python-client-venv.sh): what a customer's
 * receiver written with that client makes of our bodies.
 */
export async function parseWithPublishedModels(bodies: readonly unknown[]): Promise<ModelOutcome[]> {
  const python = venvPython("scripts/python-client-venv.sh");
  const dir = mkdtempSync(join(tmpdir(), "webhook-bodies-"));
  try {
    const file = join(dir, "bodies.json");
    writeFileSync(file, JSON.stringify(bodies));
    return await runJsonLines(python, ["test/published-python-client/webhooks.py", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Expects every body a receiver got to parse with the published client's model of its type (and such a model to exist). */
export async function expectReceivedBodiesFitPublishedModels(receiver: WebhookReceiver): Promise<void> {
  const bodies = receiver.received.map((r) => r.json).filter((json) => json && typeof json.type === "string");
  expect(bodies.length).toBeGreaterThan(0);
  const outcomes = await parseWithPublishedModels(bodies);
  expect(outcomes.filter((o) => o.error !== null)).toEqual([]);
  expect(outcomes.filter((o) => o.model === null).map((o) => o.type)).toEqual([]);
}
