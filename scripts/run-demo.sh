#!/usr/bin/env bash
# Installs what is missing, builds, and serves the built-in demo app on http://127.0.0.1:8080.
# Any arguments go to minerva-server (try --help, --port 0, --app FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
exec .build/release/minerva-server "$@"
