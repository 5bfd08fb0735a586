#!/usr/bin/env bash
# What the state document costs once presentable state added levels, titles, UI state and
# results: instructions per GET of a session's state (valgrind's callgrind on model-driver's
# http-get-shaped scenario: four pushed screens, a list, a presented sheet, on the tabs app) and
# the document's bytes, in this build and in REF, the build before presentable state; and in this
# build with UI state on every node and two flows' results held (STATE_EXTRAS=1). Both builds run
# this build's driver source, copied into REF's worktree.
#
#   Benchmarks/run-state-document.sh      # REF=4f9203c; about 10 minutes with both builds
#
# Instructions per GET = (total at N2 − total at N1) / (N2 − N1): start-up and set-up cancel out.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
ref="${REF:-4f9203c}"
n1="${N1:-200}"
n2="${N2:-1200}"
scratch="$here/.build/state-document"
worktree="$scratch/ref-$ref"

# shellcheck source=callgrind.sh
source "$here/callgrind.sh"
ensure_valgrind

ref_worktree "$root" "$ref" "$worktree"

echo "run-state-document: building model-driver of $ref and of this build (release)" >&2
build_model_driver "$worktree/Benchmarks" "$scratch/build-ref" "$scratch/ref"
build_model_driver "$root/Benchmarks" "$scratch/build-head" "$scratch/head"

total() {  # DRIVER EXTRAS ITERATIONS: instructions of the whole run
  STATE_EXTRAS="$2" SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    "$scratch/$1" http-get-shaped "$3" 2>&1 >/dev/null | awk '/Collected :/ {print $4}'
}
bytes() {  # DRIVER EXTRAS: the state document's bytes
  STATE_EXTRAS="$2" "$scratch/$1" http-get-shaped 1 2>&1 >/dev/null | awk '/state document bytes/ {print $4}'
}

echo "| session | build | instructions per GET | bytes |"
echo "|---|---|---:|---:|"
for run in "ref 0 $ref" "head 0 this-build" "head 1 this-build,with-UI-state-and-results"; do
  read -r driver extras label <<<"$run"
  a=$(total "$driver" "$extras" "$n1")
  b=$(total "$driver" "$extras" "$n2")
  echo "| ${label//-/ } | $driver | $(( (b - a) / (n2 - n1) )) | $(bytes "$driver" "$extras") |"
done
