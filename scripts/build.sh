#!/usr/bin/env bash
# Builds the release binary .build/release/minerva-server with the Swift standard library
# linked in statically, so that it runs on a slim Debian with only libmicrohttpd12.
# The README, the tests and the Dockerfile all build with this script. On a terminal SwiftPM
# draws its own progress; elsewhere (a log, CI) its "[n/N]" line shows at least every 15 s, and
# a failed build's last 60 lines follow.
set -euo pipefail
cd "$(dirname "$0")/.."
build=(swift build -c release --product minerva-server --static-swift-stdlib "$@")
if [[ -t 1 ]]; then
  exec "${build[@]}"
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! "${build[@]}" 2>&1 | scripts/progress.sh "$log"; then
  tail -n 60 "$log" >&2
  exit 1
fi
