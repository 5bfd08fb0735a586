#!/usr/bin/env bash
# Installs what is missing, builds, and serves the built-in demo app on http://127.0.0.1:8080.
# Any arguments go to minerva-server (try --help, --port 0, --app FILE); the server runs in the
# folder this is called from, so that a relative --app or --store path names a file there.
set -euo pipefail
root=$(cd -P "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
exec "$root/.build/release/minerva-server" "$@"
