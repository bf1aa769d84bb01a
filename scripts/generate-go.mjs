// Generates the Go client's code (sdk/go/gen) from the protos with buf and buf.gen.go.yaml.
//
//   node scripts/generate-go.mjs           regenerate sdk/go/gen (committed: `go get` needs it)
//   node scripts/generate-go.mjs --check   regenerate into a temporary directory and fail when it
//                                          differs from sdk/go/gen (CI)
//
// The plugins are installed with `go install` at pinned versions from the module proxy, into
// ~/.cache/gamification-go-tools/<plugin>@<version>/ (reused by later runs and other clones). The
// runtime versions in sdk/go/go.mod go with them. The buf dependencies come from .proto-deps, which
// `npm run generate` prepares (run here when missing).
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { delimiter, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const PLUGINS = [
  { name: "protoc-gen-go", module: "google.golang.org/protobuf/cmd/protoc-gen-go", version: "v1.36.12" },
  { name: "protoc-gen-connect-go", module: "connectrpc.com/connect/cmd/protoc-gen-connect-go", version: "v1.21.0" },
];

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const genDir = join(root, "sdk/go/gen");
const check = process.argv.includes("--check");

function findGo() {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && existsSync(join(dir, "go"))) return join(dir, "go");
  }
  if (existsSync("/usr/local/go/bin/go")) return "/usr/local/go/bin/go";
  throw new Error("Go is needed to install the Go code generators: https://go.dev/dl/ (or put it on PATH)");
}

/** Installs each plugin once per version; returns the directories to put on PATH. */
function installPlugins() {
  const cache = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "gamification-go-tools");
  const dirs = [];
  let go;
  for (const plugin of PLUGINS) {
    const dir = join(cache, `${plugin.name}@${plugin.version}`);
    if (!existsSync(join(dir, plugin.name))) {
      go ??= findGo();
      console.log(`installing ${plugin.module}@${plugin.version}`);
      execFileSync(go, ["install", `${plugin.module}@${plugin.version}`], {
        stdio: "inherit",
        env: { ...process.env, GOBIN: dir },
        cwd: tmpdir(), // outside any module, so the install ignores sdk/go/go.mod
      });
    }
    dirs.push(dir);
  }
  return dirs;
}

/** Relative paths of every file under `dir`. */
function listFiles(dir, base = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path, base) : [relative(base, path)];
  });
}

function main() {
  if (!existsSync(join(root, ".proto-deps/buf/validate/validate.proto"))) {
    execFileSync(process.execPath, [join(root, "scripts/generate.mjs")], { cwd: root, stdio: "inherit" });
  }
  const env = { ...process.env, PATH: [...installPlugins(), process.env.PATH].join(delimiter) };
  const buf = join(root, "node_modules/.bin/buf");
  if (!check) {
    execFileSync(buf, ["generate", "--template", "buf.gen.go.yaml"], { cwd: root, stdio: "inherit", env });
    return;
  }
  const out = mkdtempSync(join(tmpdir(), "gamification-go-gen-"));
  try {
    execFileSync(buf, ["generate", "--template", "buf.gen.go.yaml", "-o", out], { cwd: root, stdio: "inherit", env });
    const fresh = join(out, "sdk/go/gen");
    const names = [...new Set([...listFiles(fresh), ...listFiles(genDir)])].sort();
    const stale = names.filter((name) => {
      const a = join(fresh, name);
      const b = join(genDir, name);
      return !existsSync(a) || !existsSync(b) || !readFileSync(a).equals(readFileSync(b));
    });
    if (stale.length > 0) {
      console.error(`sdk/go/gen is out of date with the protos (${stale.length} files differ):`);
      for (const name of stale) console.error(`  sdk/go/gen/${name}`);
      console.error("Run `npm run generate:go` and commit sdk/go/gen.");
      process.exit(1);
    }
    console.log(`sdk/go/gen is up to date (${names.length} files)`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

main();
