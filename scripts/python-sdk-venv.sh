#!/usr/bin/env bash
# Our Python client, `pip install ./sdk/python` into a venv under .tmp/ as a user would install it
# (dependencies from PyPI), for test/clients/python-sdk.test.ts. Used by .ci/run and by the test itself;
# remade only when sdk/python changed since the venv was made. Prints the venv's python path.
# Needs python3 (3.11+, as connectrpc does) with venv and pip.
set -euo pipefail
exec </dev/null
cd "$(dirname "$0")/.."

readonly VENV=".tmp/python-sdk-venv"

python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
  echo "python-sdk-venv: the Python client needs Python 3.11 or newer (python3 is $(python3 --version 2>&1))" >&2
  exit 1
}
# What was installed: every file of sdk/python but caches and build output.
stamp="$(find sdk/python -type f ! -path '*/__pycache__/*' ! -path 'sdk/python/build/*' ! -path 'sdk/python/dist/*' ! -path '*.egg-info/*' -print0 \
  | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)"
if [[ ! -x "$VENV/bin/python" || "$(cat "$VENV/sdk-stamp" 2>/dev/null)" != "$stamp" ]]; then
  rm -rf "$VENV"
  mkdir -p .tmp
  python3 -m venv "$VENV" >&2
  "$VENV/bin/pip" install --quiet --disable-pip-version-check --no-input ./sdk/python >&2
  "$VENV/bin/python" -c 'import gamification' || { echo "python-sdk-venv: gamification does not import" >&2; exit 1; }
  echo "$stamp" >"$VENV/sdk-stamp"
fi
echo "$PWD/$VENV/bin/python"
