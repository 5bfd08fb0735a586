#!/usr/bin/env bash
# Writes the Swift client's HTTP layer (Client/Sources/MinervaClient/Generated/) from openapi.yaml
# with swift-openapi-generator, so that apps build MinervaClient without a build plugin.
#   scripts/generate-swift-client.sh           # after a change to openapi.yaml: commit the result
#   scripts/generate-swift-client.sh --check   # fails, naming the files, when they are not current
set -euo pipefail
cd "$(dirname "$0")/.."

target=Client/Sources/MinervaClient/Generated
tool=Client/CodeGeneration
swift build --package-path "$tool" -c release --product swift-openapi-generator 2>&1 | grep -E "error|warning: " || true
generator="$(swift build --package-path "$tool" -c release --show-bin-path)/swift-openapi-generator"

output=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$output" "$log"' EXIT
if ! "$generator" generate openapi.yaml --config Client/Sources/MinervaClient/openapi-generator-config.yaml \
  --output-directory "$output" >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi

if [[ "${1:-}" == "--check" ]]; then
  if ! diff -r -q "$target" "$output"; then
    echo "The Swift client's generated sources are not those of openapi.yaml: run scripts/generate-swift-client.sh and commit $target." >&2
    exit 1
  fi
  echo "The Swift client's generated sources are current."
else
  rm -rf "$target"
  mkdir -p "$target"
  cp "$output"/*.swift "$target/"
  echo "Wrote $target from openapi.yaml."
fi
