#!/usr/bin/env bash
# Builds the release binary .build/release/minerva-server with the Swift standard library
# linked in statically, so that it runs on a slim Debian with only libmicrohttpd12.
# The README, the tests and the Dockerfile all build with this script.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product minerva-server --static-swift-stdlib "$@"
