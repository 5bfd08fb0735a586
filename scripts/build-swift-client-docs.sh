#!/usr/bin/env bash
# Builds the Swift client's DocC catalog (Client/Sources/MinervaClient/MinervaClient.docc) with the
# toolchain's docc, every symbol link resolved (a warning fails it), into
# Client/.build/MinervaClient.doccarchive. Apps need no documentation plugin for it: Xcode's
# Product › Build Documentation builds the same catalog.
#   scripts/build-swift-client-docs.sh
#   docc preview Client/Sources/MinervaClient/MinervaClient.docc --additional-symbol-graph-dir Client/.build/symbol-graphs
set -euo pipefail
cd "$(dirname "$0")/../Client"

log=$(mktemp)
graphs=.build/symbol-graphs
trap 'rm -f "$log"' EXIT
if ! swift package dump-symbol-graph --minimum-access-level public >"$log" 2>&1; then
  grep -E "error" "$log" >&2
  exit 1
fi
rm -rf "$graphs"
mkdir -p "$graphs"
cp "$(swift build --show-bin-path)/../symbolgraph"/MinervaClient*.symbols.json "$graphs/"
if ! docc convert Sources/MinervaClient/MinervaClient.docc --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name MinervaClient --fallback-bundle-identifier org.minerva.MinervaClient \
  --output-path .build/MinervaClient.doccarchive --warnings-as-errors >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
echo "Built the Swift client's documentation: Client/.build/MinervaClient.doccarchive"
