import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

/** The repository's root. */
export const ROOT = join(import.meta.dirname, "../..");

/**
 * The python of a venv made by one of the repository's scripts (`scripts/*-venv.sh`, which print the
 * venv's python path last). CI makes the venvs in its own steps; a local run makes them here when
 * they are missing or stale.
 */
export function venvPython(script: string): string {
  const made = spawnSync("bash", [join(ROOT, script)], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (made.status !== 0) throw new Error(`${script} failed: ${made.stderr}`);
  const path = made.stdout.trim().split("\n").at(-1)!;
  if (!existsSync(path)) throw new Error(`no venv python at ${path}`);
  return path;
}

/**
 * Runs a program and resolves with the JSON documents it printed, one per non-empty line; rejects
 * with its standard error when it exits with another status than 0. Never spawnSync: the server
 * under test answers from this process and must keep doing so while the program calls it.
 */
export function runJsonLines(command: string, args: readonly string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<any[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code !== 0) return reject(new Error(`${command} ${args.join(" ")} exited with ${code ?? signal}: ${stderr}`));
      try {
        resolve(
          stdout
            .split("\n")
            .filter((line) => line.trim() !== "")
            .map((line) => JSON.parse(line)),
        );
      } catch (error) {
        reject(new Error(`${command} ${args.join(" ")} printed what is not JSON lines (${(error as Error).message}): ${stdout}`));
      }
    });
  });
}
