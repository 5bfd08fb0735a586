#!/usr/bin/env bash
# The hot path in instructions per request: valgrind's callgrind on model-driver, which sends
# GET state, push+pop and list PUT through MinervaAPI.reply(to:) in process (the HTTP server's
# entry point, without sockets), on the memory store, SQLite and PostgreSQL (a private cluster
# started here and removed on exit). Flow analytics are on, as by default, and the writer's
# work is counted. Prints one line per scenario and store; nothing is asserted: compare the
# figures with BENCHMARKS.md ("The hot path") in review.
#
#   Benchmarks/hot-path.sh                    # every store: about 6 minutes after the build
#   STORES="memory sqlite" Benchmarks/hot-path.sh
#   MODEL_APP=experiment Benchmarks/hot-path.sh   # the session in an experiment (never exposed)
#   MODEL_APP=experiment-counted Benchmarks/hot-path.sh   # exposed, and counted by a funnel of what it pushes
#
# Instructions per request = (total at N2 − total at N1) / (requests between), so start-up, the
# session's creation and warm-up cancel out; deterministic hashing makes runs repeatable.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
scratch="$here/.build/model"
stores="${STORES:-memory sqlite postgres}"
n1="${N1:-200}"
n2="${N2:-1200}"

# shellcheck source=callgrind.sh
source "$here/callgrind.sh"
ensure_valgrind
echo "hot-path: building model-driver (release) in $scratch" >&2
build_model_driver "$here" "$scratch" "$scratch/callgrind/model-driver"

cluster=""
cleanup() { [[ -z "$cluster" ]] || python3 "$here/../tests/live/postgres.py" stop "${cluster%% *}" >/dev/null; }
trap cleanup EXIT
if [[ " $stores " == *" postgres "* ]]; then
  cluster=$(python3 "$here/../tests/live/postgres.py" start)
fi

total() {  # STORE OP ITERATIONS: instructions of the whole run
  local store="$1"; shift
  MODEL_STORE="$store" SWIFT_DETERMINISTIC_HASHING=1 LIST_PUT_BODIES="$here/wrk/list_put" \
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$scratch/callgrind/model-driver" "$@" 2>&1 >/dev/null \
    | awk '/Collected :/ {print $4}'
}

echo "scenario     store     instructions per request"
for store in $stores; do
  target="$store"
  [[ "$store" == postgres ]] && target="${cluster#* }"
  # requests per iteration: GET 1, push+pop 2, list PUT 3
  for scenario in "http-get 1 GET" "http-push-pop 2 push+pop" "http-list-put 3 list-PUT"; do
    read -r op per name <<<"$scenario"
    a=$(total "$target" "$op" "$n1")
    b=$(total "$target" "$op" "$n2")
    printf '%-12s %-9s %s\n' "$name" "$store" "$(( (b - a) / ((n2 - n1) * per) ))"
  done
done
