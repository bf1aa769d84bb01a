#!/usr/bin/env bash
# The reference's published Python client, `trophy` (pinned), in a venv under .tmp/, for
# test/clients/published-python-client.test.ts. Used by .ci/run and by the test itself when the venv is
# missing; does nothing when the pinned version is already installed. Prints the venv's python path.
# Needs python3 (3.9+) with venv and pip.
set -euo pipefail
exec </dev/null
cd "$(dirname "$0")/.."

readonly TROPHY_VERSION="1.27.0"
readonly VENV=".tmp/python-client-venv"

installed() {
  "$VENV/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("trophy") != sys.argv[1])' "$TROPHY_VERSION" 2>/dev/null
}
if ! installed; then
  rm -rf "$VENV"
  mkdir -p .tmp
  python3 -m venv "$VENV" >&2
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-input "trophy==$TROPHY_VERSION" >&2
  installed || { echo "python-client-venv: trophy $TROPHY_VERSION did not install" >&2; exit 1; }
fi
echo "$PWD/$VENV/bin/python"
