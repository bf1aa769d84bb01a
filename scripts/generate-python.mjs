// Generates the Python client's code (sdk/python/src/gamification/v1 and sdk/python/src/buf) from the
// protos with buf and buf.gen.python.yaml.
//
//   node scripts/generate-python.mjs           regenerate (committed: `pip install` needs no buf)
//   node scripts/generate-python.mjs --check   regenerate into a temporary directory and fail when it
//                                              differs from the committed code (CI)
//
// The generators are installed from PyPI at pinned versions into a venv, .tmp/python-gen-venv (made
// once, remade when a pin changes): protoc from grpcio-tools (`python -m grpc_tools.protoc`, for
// buf's protoc_builtin python and pyi plugins) and protoc-gen-connectrpc. The protoc version sets
// the generated code's minimum `protobuf` runtime (sdk/python/pyproject.toml). Needs python3 (3.11+)
// with venv and pip. The buf dependencies come from .proto-deps, which `npm run generate` prepares
// (run here when missing).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const TOOLS = { "grpcio-tools": "1.78.2", "protoc-gen-connectrpc": "0.13.0" };

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const venv = join(root, ".tmp/python-gen-venv");
const venvPython = join(venv, "bin/python");
const srcDir = join(root, "sdk/python/src");
/** The generated directories under sdk/python/src; everything else there is written by hand. */
const GENERATED = ["gamification/v1", "buf"];
const check = process.argv.includes("--check");

function toolsInstalled() {
  if (!existsSync(venvPython)) return false;
  const probe = spawnSync(
    venvPython,
    ["-c", "import importlib.metadata as m, json, sys; sys.exit(any(m.version(n) != v for n, v in json.loads(sys.argv[1]).items()))", JSON.stringify(TOOLS)],
    { stdio: "ignore" },
  );
  return probe.status === 0;
}

function installTools() {
  if (toolsInstalled()) return;
  console.log(
    `installing ${Object.entries(TOOLS)
      .map(([name, version]) => `${name}==${version}`)
      .join(" ")} into .tmp/python-gen-venv`,
  );
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(dirname(venv), { recursive: true });
  execFileSync("python3", ["-m", "venv", venv], { stdio: "inherit" });
  execFileSync(
    join(venv, "bin/pip"),
    ["install", "--quiet", "--disable-pip-version-check", "--no-input", ...Object.entries(TOOLS).map(([name, version]) => `${name}==${version}`)],
    { stdio: "inherit" },
  );
  if (!toolsInstalled()) throw new Error("the Python code generators did not install");
}

/** Runs buf generate; protoc's "Import ... is unused" warnings (imports that only options use) are dropped. */
function bufGenerate(extraArgs) {
  const result = spawnSync(join(root, "node_modules/.bin/buf"), ["generate", "--template", "buf.gen.python.yaml", ...extraArgs], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "inherit", "pipe"],
  });
  const stderr = result.stderr
    .split("\n")
    .filter((line) => line.trim() !== "" && !/warning: Import .* is unused\.$/.test(line))
    .join("\n");
  if (stderr) console.error(stderr);
  if (result.status !== 0) throw new Error(`buf generate failed (exit ${result.status})`);
}

/** Relative paths of every file under `dir`. */
function listFiles(dir, base = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === "__pycache__") return [];
    return statSync(path).isDirectory() ? listFiles(path, base) : [relative(base, path)];
  });
}

function main() {
  if (!existsSync(join(root, ".proto-deps/buf/validate/validate.proto"))) {
    execFileSync(process.execPath, [join(root, "scripts/generate.mjs")], { cwd: root, stdio: "inherit" });
  }
  installTools();
  if (!check) {
    for (const dir of GENERATED) rmSync(join(srcDir, dir), { recursive: true, force: true });
    bufGenerate([]);
    return;
  }
  const out = mkdtempSync(join(tmpdir(), "gamification-python-gen-"));
  try {
    bufGenerate(["-o", out]);
    const freshSrc = join(out, "sdk/python/src");
    const stale = [];
    let count = 0;
    for (const dir of GENERATED) {
      const fresh = join(freshSrc, dir);
      const committed = join(srcDir, dir);
      const names = [...new Set([...listFiles(fresh), ...listFiles(committed)])].sort();
      count += names.length;
      for (const name of names) {
        const a = join(fresh, name);
        const b = join(committed, name);
        if (!existsSync(a) || !existsSync(b) || !readFileSync(a).equals(readFileSync(b))) stale.push(join(dir, name));
      }
    }
    if (stale.length > 0) {
      console.error(`sdk/python/src is out of date with the protos (${stale.length} files differ):`);
      for (const name of stale) console.error(`  sdk/python/src/${name}`);
      console.error("Run `npm run generate:python` and commit sdk/python/src.");
      process.exit(1);
    }
    console.log(`sdk/python/src is up to date (${count} generated files)`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

main();
