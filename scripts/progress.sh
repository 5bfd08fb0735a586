#!/usr/bin/env bash
# Shows that a long build or test run is moving without flooding the log: reads its output on
# standard input and prints SwiftPM's "[n/N] …" line and pytest's "[ NN%]" line at most once
# every PROGRESS_SECONDS (15 by default), the last of them again when the output pauses that
# long, and at once every "Building for…"/"Build complete…" line, every finished Swift test
# suite and every error. PROGRESS_PREFIX goes before every line it prints.
#   swift build -c release 2>&1 | scripts/progress.sh            # build.sh does this
#   swift build -c release 2>&1 | scripts/progress.sh build.log  # also keeps the whole output
set -uo pipefail

every=${PROGRESS_SECONDS:-15}
prefix=${PROGRESS_PREFIX:-}
log=${1:-/dev/null}
last_shown=$((SECONDS - every))
pending="" partial=""

show() {  # LINE [WIDTH]
  printf '%s%s\n' "$prefix" "${1:0:${2:-110}}"
}

while true; do
  if IFS= read -r -t "$every" line; then
    line=$partial$line partial=""
    printf '%s\n' "$line" >>"$log"
    case "$line" in
      \[[0-9]*/[0-9]*\]\ * | *\[*[0-9]%\]*)
        if ((SECONDS - last_shown >= every)); then
          show "$line"
          last_shown=$SECONDS pending=""
        else
          pending=$line
        fi
        ;;
      "Building for"* | "Build complete"* | "Build of"* | "✔ Suite "* | "✘ Suite "* | *"error: "*)
        show "$line" 100000
        ;;
    esac
  elif (($? > 128)); then
    # no whole line within the period (keep what came of one): show where the run stands, once
    partial+=$line
    if [[ -n "$pending" ]]; then
      show "$pending"
      last_shown=$SECONDS pending=""
    fi
  else
    [[ -z "$partial$line" ]] || printf '%s\n' "$partial$line" >>"$log"
    break
  fi
done
