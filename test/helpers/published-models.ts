import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runJsonLines, venvPython } from "./programs.js";

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
