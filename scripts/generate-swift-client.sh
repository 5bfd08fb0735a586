#!/usr/bin/env bash
# Writes the Swift client's HTTP layer (Client/Sources/MinervaClient/Generated/) from openapi.yaml
# with swift-openapi-generator, so that apps build MinervaClient without a build plugin, and its
# digest (Client/Sources/MinervaClient/Generated.sha256): the SHA-256 of everything the generation
# reads (openapi.yaml, the generator's configuration, the package that pins the generator's
# version) and of every file it wrote.
#   scripts/generate-swift-client.sh                 # after a change to openapi.yaml: commit the result
#   scripts/generate-swift-client.sh --check         # fails, naming the files, when they are not current
#   scripts/generate-swift-client.sh --check --full  # regenerates and compares even when the digest holds
# --check first compares the digest: when every input and generated file is as it lists, the
# sources are current without building the generator (a release build of about 4 minutes). When
# anything differs it builds the generator, regenerates and compares the files, and fails on a
# stale digest too, so that the next check is quick again.
set -euo pipefail
cd "$(dirname "$0")/.."

target=Client/Sources/MinervaClient/Generated
config=Client/Sources/MinervaClient/openapi-generator-config.yaml
tool=Client/CodeGeneration
digest=Client/Sources/MinervaClient/Generated.sha256
inputs=(openapi.yaml "$config" "$tool/Package.swift")

check=false full=false
for argument in "$@"; do
  case "$argument" in
    --check) check=true ;;
    --full) full=true ;;
    *) echo "usage: scripts/generate-swift-client.sh [--check [--full]]" >&2; exit 2 ;;
  esac
done

# The digest as it would be written now: inputs first, then the generated files in name order.
current_digest() {
  sha256sum "${inputs[@]}" "$target"/*.swift
}

if $check && ! $full && [[ -f "$digest" ]] && [[ "$(current_digest)" == "$(cat "$digest")" ]]; then
  echo "The Swift client's generated sources are current (their digest matches openapi.yaml, the generator's configuration and version)."
  exit 0
fi

echo "Building swift-openapi-generator (release, in $tool/.build)…"
swift build --package-path "$tool" -c release --product swift-openapi-generator 2>&1 | grep -E "error|warning: " || true
generator="$(swift build --package-path "$tool" -c release --show-bin-path)/swift-openapi-generator"

output=$(mktemp -d)
log=$(mktemp)
trap 'rm -rf "$output" "$log"' EXIT
if ! "$generator" generate openapi.yaml --config "$config" --output-directory "$output" >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi

if $check; then
  if ! diff -r -q "$target" "$output"; then
    echo "The Swift client's generated sources are not those of openapi.yaml: run scripts/generate-swift-client.sh and commit $target and $digest." >&2
    exit 1
  fi
  if [[ "$(current_digest)" != "$(cat "$digest" 2>/dev/null)" ]]; then
    echo "The Swift client's generated sources are current, but $digest is not: run scripts/generate-swift-client.sh and commit it." >&2
    exit 1
  fi
  echo "The Swift client's generated sources are current (regenerated and compared)."
else
  rm -rf "$target"
  mkdir -p "$target"
  cp "$output"/*.swift "$target/"
  current_digest >"$digest"
  echo "Wrote $target and $digest from openapi.yaml."
fi
