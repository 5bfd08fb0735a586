#!/usr/bin/env bash
# Fuzzes the request-path parser (percent-decoding and routing) and the JSON parser
# (differential against Foundation's JSONSerialization) with libFuzzer, each for a fixed time,
# and prints the figures BENCHMARKS.md records: executions, coverage, corpus, findings.
#   Fuzz/run.sh [SECONDS]     # per target; default 60
# Builds in debug with -sanitize=fuzzer (the path target imports MinervaServer @testable).
# Starts from the committed seeds in Fuzz/corpus/; what libFuzzer adds goes to a temporary
# folder, and inputs that crash are kept in Fuzz/findings/ to be turned into tests.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if ! swift build -Xswiftc -sanitize=fuzzer >"$work/build.log" 2>&1; then
  cat "$work/build.log" >&2
  exit 1
fi
bin="$(swift build -Xswiftc -sanitize=fuzzer --show-bin-path)"
mkdir -p findings

status=0
for target in path json; do
  mkdir -p "$work/$target"
  # SWIFT_BACKTRACE off: libFuzzer's own handler reports a crash and saves its input.
  if ! SWIFT_BACKTRACE=enable=no "$bin/fuzz-$target" -max_total_time="$seconds" -print_final_stats=1 \
      -max_len=4096 -artifact_prefix="findings/$target-" "$work/$target" "corpus/$target" >"$work/$target.log" 2>&1; then
    status=1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$target.log" | grep -o '[0-9]*$' || echo 0)
  last=$(grep -E '^#[0-9]+' "$work/$target.log" | tail -n 1)
  cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo '?')
  features=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo '?')
  corpus=$(grep -o 'corp: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo '?')
  findings=$(find findings -name "$target-*" | wc -l)
  echo "fuzz-$target: ${seconds} s, $runs executions, coverage $cov edges ($features features), corpus $corpus inputs, findings $findings"
  if ((findings > 0)); then
    grep -E 'finding:|Fatal error|ERROR: libFuzzer' "$work/$target.log" | head -n 5
  fi
done
exit "$status"
