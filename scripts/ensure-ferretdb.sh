#!/usr/bin/env bash
# Prints the absolute path of a working FerretDB binary (the development and test database),
# building it from the Go module proxy on first use. Only the path goes to stdout; progress goes
# to stderr.
#
# Cache: ${FERRETDB_CACHE:-$HOME/.cache/gamification-ferretdb} (outside the clone, so reruns and
# CI reruns reuse it). Safe to rerun after an interrupted build: each build starts from a fresh
# work directory and the binary is moved into place only once it runs.
#
# Why not `go install ...@v1.24.2`: the proxy refuses the module's version list, which `go install`
# reads for its deprecation check. Requiring the exact version from a throwaway module avoids that.
# The published module also lacks the generated build/version/version.txt, without which the
# binary panics at start, so the build uses a writable copy of the source with that file added.
set -euo pipefail

readonly VERSION="v1.24.2"
# Our patches on top of VERSION (see apply_patches); a new patch level builds a new binary.
readonly PATCH_LEVEL="p2"
readonly MODULE="github.com/FerretDB/FerretDB"
readonly CACHE="${FERRETDB_CACHE:-$HOME/.cache/gamification-ferretdb}"
readonly BIN_NAME="ferretdb-$VERSION-$PATCH_LEVEL"
readonly BIN="$CACHE/bin/$BIN_NAME"

log() { echo "ensure-ferretdb: $*" >&2; }

# Whether a binary reports VERSION. Its output is read whole before grep looks at it: `--version`
# prints more lines after the version, and with `grep -q` in a pipe (pipefail) the binary could be
# killed by SIGPIPE when grep stopped reading first, failing the check at random on a busy machine
# (which then rebuilt FerretDB, or failed a test run).
reports_version() {
  local out
  out="$("$1" --version 2>/dev/null)" || return 1
  grep -qx "version: $VERSION" <<<"$out"
}

is_ready() {
  [[ -x "$BIN" ]] && reports_version "$BIN"
}

mkdir -p "$CACHE/bin"
CACHE_ABS="$(cd "$CACHE" && pwd -P)"

# Serialize concurrent callers (e.g. two test runs on a fresh machine) when flock is available.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$CACHE_ABS/.lock"
  flock 9
fi

if is_ready; then
  echo "$CACHE_ABS/bin/$BIN_NAME"
  exit 0
fi

if ! command -v go >/dev/null 2>&1; then
  log "FerretDB $VERSION is not in $CACHE_ABS/bin and 'go' is not on PATH to build it."
  log "Install Go 1.24 or newer, or set FERRETDB_BIN to an existing ferretdb $VERSION binary."
  exit 1
fi

log "building FerretDB $VERSION with $(go version) (one time, about a minute or two)"

work="$CACHE_ABS/build"
tmp_bin="$CACHE_ABS/bin/ferretdb.tmp.$$"
rm -rf "$work" "$CACHE_ABS"/bin/ferretdb.tmp.*
mkdir -p "$work"
trap 'rm -rf "$work" "$tmp_bin"' EXIT

export GOWORK=off
export GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=mod"

cd "$work"
cat >go.mod <<EOF
module ferretdbbuild

go 1.22

require $MODULE $VERSION
EOF
cat >tools.go <<EOF
//go:build tools

package tools

import _ "$MODULE/cmd/ferretdb"
EOF

# Runs a go command with its output on stderr. If it fails (typically: the checksum database is
# unreachable), retries it with GOSUMDB=off, the module proxy being the trusted source, and keeps
# that setting for the rest of the build.
run_go() {
  if ! go "$@" >&2; then
    [[ "${GOSUMDB:-}" == "off" ]] && return 1
    log "retrying 'go $*' with GOSUMDB=off"
    export GOSUMDB=off
    go "$@" >&2
  fi
}

run_go mod download "$MODULE"
src_dir="$(go list -m -f '{{.Dir}}' "$MODULE")"
if [[ -z "$src_dir" || ! -d "$src_dir" ]]; then
  log "could not locate the downloaded $MODULE source"
  exit 1
fi

cp -R "$src_dir" ./src
chmod -R u+w ./src
printf '%s\n' "$VERSION" >src/build/version/version.txt

# p1: the SQLite backend looks documents up by `_ferretdb_sjson->'$._id'` but indexes `_id` as
# `_ferretdb_sjson->"_id"`; SQLite uses an expression index only for the identical expression, so
# every `_id` lookup, update and delete scanned the whole table (measured: findOne 21 ms and
# updateOne 158 ms at 10,000 documents, 3 ms each after the patch, flat in the number of documents).
# The patch makes lookups use the index's expression, which also serves databases created before.
#
# p2: every document, array and iterator FerretDB makes is tracked for leak detection
# (`resource.Track`: a pprof profile entry with the caller's stack, and a finalizer), in release
# builds too; per document read, that is once per subdocument and array of it. A CPU profile of
# FerretDB serving findOne by `_id` of 4 KB user documents at concurrency 8: 17.6 % of its CPU in
# `resource.Track` (most of it capturing stacks). The patch keeps the tracking to debug builds
# (`debugbuild.Enabled`, as the stack capture already was); nothing else reads it.
apply_patches() {
  local file=src/internal/backends/sqlite/metadata/metadata.go
  sed -i "s|IDColumn = DefaultColumn + \"->'\$._id'\"|IDColumn = DefaultColumn + \`->\"_id\"\`|" "$file"
  if ! grep -q 'IDColumn = DefaultColumn + `->"_id"`' "$file"; then
    log "patch p1 did not apply to $file"
    exit 1
  fi
  file=src/internal/util/resource/resource.go
  sed -i -E 's/^(func (Track|Untrack)\(obj any, token \*Token\) \{)$/\1\n\tif !debugbuild.Enabled {\n\t\treturn\n\t}\n/' "$file"
  if [[ "$(grep -c '^	if !debugbuild.Enabled {$' "$file")" != 2 ]]; then
    log "patch p2 did not apply to $file"
    exit 1
  fi
}
apply_patches
go mod edit -replace "$MODULE=./src"

run_go build -o "$tmp_bin" "$MODULE/cmd/ferretdb"
if ! reports_version "$tmp_bin"; then
  rm -f "$tmp_bin"
  log "the freshly built binary does not report version $VERSION"
  exit 1
fi
mv -f "$tmp_bin" "$BIN"
log "built $CACHE_ABS/bin/$BIN_NAME"
echo "$CACHE_ABS/bin/$BIN_NAME"
