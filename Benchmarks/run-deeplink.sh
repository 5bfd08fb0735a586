#!/usr/bin/env bash
# What a deep link costs on a 6-deep stack that is already shown, in instructions per link
# (valgrind's callgrind on model-driver's deeplink6-* scenarios) and events per link: this build,
# which keeps the longest matching prefix (reconcile), against REF, the build before it, whose
# links reset the stack and built it again. Both run the same driver source (this build's
# model-driver, with the 6-step app, copied into REF's worktree).
#
#   Benchmarks/run-deeplink.sh            # REF=e279eae; about 10 minutes with both builds
#
# Instructions per link = (total at N2 − total at N1) / (N2 − N1): start-up and set-up cancel out.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
ref="${REF:-e279eae}"
n1="${N1:-200}"
n2="${N2:-1200}"
scratch="$here/.build/deeplink"
worktree="$scratch/ref-$ref"

# shellcheck source=callgrind.sh
source "$here/callgrind.sh"
ensure_valgrind

ref_worktree "$root" "$ref" "$worktree"

echo "run-deeplink: building model-driver of $ref and of this build (release)" >&2
build_model_driver "$worktree/Benchmarks" "$scratch/build-ref" "$scratch/ref"
build_model_driver "$root/Benchmarks" "$scratch/build-head" "$scratch/head"

total() {  # DRIVER SCENARIO ITERATIONS: instructions of the whole run
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$scratch/$1" "$2" "$3" 2>&1 >/dev/null \
    | awk '/Collected :/ {print $4}'
}
events() {  # DRIVER SCENARIO: events per link
  "$scratch/$1" "$2" 100 2>&1 >/dev/null | awk '/events per link/ {print $4}'
}

echo "| link on a 6-deep stack | $ref (reset) instructions | events | this build (reconcile) instructions | events | ratio |"
echo "|---|---|---|---|---|---|"
for scenario in "deeplink6-same the same link again" "deeplink6-last the last step differs" "deeplink6-first the first step differs"; do
  read -r op label <<<"$scenario"
  line="| $label"
  values=()
  for driver in ref head; do
    a=$(total "$driver" "$op" "$n1")
    b=$(total "$driver" "$op" "$n2")
    per=$(( (b - a) / (n2 - n1) ))
    values+=("$per")
    line="$line | $per | $(events "$driver" "$op")"
  done
  ratio=$(python3 -c "print(f'{${values[1]} / ${values[0]}:.2f}')")
  echo "$line | $ratio |"
done
