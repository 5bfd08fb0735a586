#!/usr/bin/env bash
# Runs every test of Minerva Server, installing what is missing first. The work is a set of jobs,
# each started as soon as the jobs it needs have passed: the three Swift builds one after another
# (each fills both cores), and beside them the tests whose build is done and that need no quiet
# machine, so that a build uses what a test run leaves idle:
#   venv           the Python test tools in .venv (scripts/setup.sh --test-venv; Debian's packages
#                  are installed before any job starts)
#   build-release  the release binary (scripts/build.sh) the live tests and the Swift client's run
#   build-unit     the unit tests, under ThreadSanitizer (.build-tsan)
#   build-client   the Swift client and its tests (Client/.build)
#   unit           swift test under ThreadSanitizer, every suite (the PostgreSQL store's against a
#                  private cluster started here and removed on exit)
#   generated      the Swift client's committed HTTP layer is that of openapi.yaml (by its digest;
#                  regenerated and compared when the digest differs)
#   lint           openapi.yaml is valid OpenAPI 3.1; hadolint on the Dockerfile
#   client         the Swift client's tests against the release binary
#   docs           the Swift client's DocC catalog, every symbol link resolved
#   live           the live HTTP tests, two at a time (pytest-xdist, each module on one worker):
#                  urllib, curl and raw sockets, a kill -9 crash test on the SQLite store,
#                  instances on private PostgreSQL clusters behind nginx, a real browser on the web
#                  client, schemathesis against openapi.yaml (as a closed world), generated Python
#                  clients, stores written by an earlier release, the Docker image's runtime
#                  stage in a debootstrap chroot
#   timing         the live tests that measure time or load (fair shares, lock-out, slow clients,
#                  instances under faults, bounds on a 503, the README's commands), one at a time,
#                  last, with nothing beside them
# Each job's output goes to a log in a temporary folder; its progress shows as it goes (a build's
# "[n/N]" line at least every 15 s), its end (and every failure) when it ends, and the run ends
# with a table of the jobs: when each started, how long it took, and its result. A failed job
# does not stop the others; the jobs that need it are skipped. The hot path's instructions per
# request are a benchmark of their own: Benchmarks/hot-path.sh.
#
#   scripts/test.sh                          # everything
#   scripts/test.sh unit                     # some jobs, and the builds they need
#   scripts/test.sh live timing -- -k lists  # pytest's own arguments after --
#   scripts/test.sh --screenshots live timing -- -k browser   # rewrite docs/*.png
#   scripts/test.sh --junit DIR              # also JUnit XML of every test run, one file a job
set -euo pipefail
cd "$(dirname "$0")/.."

usage() {
  echo "usage: scripts/test.sh [--screenshots] [--junit DIR] [JOB …] [-- PYTEST_ARGUMENTS …]" >&2
  echo "jobs: ${jobs[*]} (default: all; a job brings the builds it needs)" >&2
  exit 2
}

chosen=()
pytest_arguments=()
junit=""
while (($#)); do
  case "$1" in
    --screenshots) export MINERVA_SCREENSHOTS=1 ;;
    --junit)
      [[ $# -ge 2 ]] || { echo "scripts/test.sh: --junit needs a folder" >&2; exit 2; }
      mkdir -p "$2"; junit=$(cd "$2" && pwd); shift ;;
    --) shift; pytest_arguments=("$@"); break ;;
    -h | --help) chosen+=(--help) ;;
    *) chosen+=("$1") ;;
  esac
  shift
done

# JOB: the arguments that write the job's JUnit XML when --junit asked for it.
junit_arguments() {
  [[ -z "$junit" ]] || printf -- '--%s %q' "${2:-junitxml}" "$junit/$1.xml"
}

# JOB MARKS [ARGUMENTS]: the live tests that MARKS select, with the caller's arguments after
# ARGUMENTS. pytest's "no tests ran" (exit 5) is a pass when the caller's arguments chose tests.
pytest_command() {
  local arguments
  printf -v arguments ' %q' "${pytest_arguments[@]}"
  echo ".venv/bin/pytest -v -p no:cacheprovider --strict-markers --durations=25 $(junit_arguments "$1") -m '$2' ${3:-}${arguments} tests/live" \
    "|| { status=\$?; [[ \$status == 5 && ${#pytest_arguments[@]} != 0 ]] || exit \$status; }"
}

jobs=()
declare -A needs=() after=() title=() command=() tail_lines=()
# job NAME NEEDS AFTER LINES TITLE COMMAND: a job, in the order of the table; NEEDS must have
# passed and AFTER must have ended (however) before it starts; LINES of its end are shown when it
# passes (a test run's summary).
job() {
  jobs+=("$1")
  needs[$1]=$2 after[$1]=$3 tail_lines[$1]=$4 title[$1]=$5 command[$1]=$6
}
# The unit tests' build keeps line tables only, not full debug information: enough for the file
# and line of a failure, a crash or a sanitizer report, and cheaper to compile and link.
line_tables="-Xswiftc -gline-tables-only -Xcc -gline-tables-only"
job venv "" "" 0 "the Python test tools (.venv)" "scripts/setup.sh --test-venv"
job build-release "" "" 0 "release build (scripts/build.sh)" "scripts/build.sh"
job build-unit "" "" 0 "unit tests' build, ThreadSanitizer (.build-tsan)" \
  "swift build --product minerva-serverPackageTests --scratch-path .build-tsan --sanitize=thread $line_tables"
job build-client "" "" 0 "the Swift client's build (Client/.build)" "swift build --build-tests --package-path Client"
job generated "" "" 0 "the client's HTTP layer is that of openapi.yaml" "scripts/generate-swift-client.sh --check"
job lint venv "" 0 "openapi.yaml validates; hadolint" ".venv/bin/openapi-spec-validator openapi.yaml && .venv/bin/hadolint Dockerfile"
job unit build-unit "" 6 "unit tests under ThreadSanitizer (swift test)" \
  "swift test --skip-build --scratch-path .build-tsan --sanitize=thread --parallel $(junit_arguments unit xunit-output)"
job client "build-client build-release" "" 4 "the Swift client against the release binary" \
  "MINERVA_BIN='$PWD/.build/release/minerva-server' swift test --skip-build --package-path Client $(junit_arguments client xunit-output)"
job docs build-client client 0 "the Swift client's DocC catalog" "scripts/build-swift-client-docs.sh"
job live "build-release venv" "" 40 "live tests, two at a time (pytest-xdist)" "$(pytest_command live 'not serial' '-n 2 --dist loadfile')"
job timing "build-release venv" "build-unit build-client generated lint unit client docs live" 40 \
  "live tests that measure time or load, alone" "$(pytest_command timing serial)"

declare -A wanted=()
for name in "${chosen[@]}"; do
  [[ "$name" != --help ]] || usage
  [[ -v "title[$name]" ]] || { echo "scripts/test.sh: no job '$name'" >&2; usage; }
  wanted[$name]=1
done
if ((${#wanted[@]} == 0)); then
  for name in "${jobs[@]}"; do wanted[$name]=1; done
else
  # a chosen job brings the builds it needs
  for name in "${!wanted[@]}"; do
    for need in ${needs[$name]}; do wanted[$need]=1; done
  done
fi

declare -A state=() pid=() follower=() started=() took=() logs=()
run_started=$SECONDS
folder=$(mktemp -d -t minerva-test-XXXXXX)

clock() {  # SECONDS → M:SS
  printf '%d:%02d' $(($1 / 60)) $(($1 % 60))
}

summary() {
  local job failed=() passed=0
  failures_again
  echo
  echo "== summary: $(clock $((SECONDS - run_started))) in all; jobs overlap (start is from the beginning)"
  printf '%-14s %-52s %6s %6s  %s\n' job what start time result
  for job in setup "${jobs[@]}"; do
    [[ -v "state[$job]" ]] || continue
    printf '%-14s %-52s %6s %6s  %s\n' "$job" "${title[$job]}" "$(clock "${started[$job]:-0}")" "$(clock "${took[$job]:-0}")" "${state[$job]}"
    case "${state[$job]}" in passed) passed=$((passed + 1)) ;; *) failed+=("$job") ;; esac
  done
  if ((${#failed[@]})); then echo "FAILED: ${failed[*]}"; else echo "all passed"; fi
  echo "jobs: $passed passed, ${#failed[@]} failed"
}

failures_again() {  # a failed job's failing tests once more, where a log's tail will show them
  local job
  for job in "${jobs[@]}"; do
    [[ "${state[$job]:-}" == failed* && -f "${logs[$job]:-}" ]] || continue
    echo
    echo "== $job failed; its failures again:"
    grep -E "^(FAILED|ERROR) |✘|WARNING: ThreadSanitizer|error:|Fatal error" "${logs[$job]}" | head -n 40 | sed "s/^/[$job] /" || true
  done
}

stop_everything() {
  local job
  for job in "${!pid[@]}"; do
    [[ "${state[$job]}" != running ]] || kill -TERM -- "-${pid[$job]}" 2>/dev/null || true
  done
  [[ -z "${cluster:-}" ]] || python3 tests/live/postgres.py stop "${cluster%% *}" || true
  summary
  rm -rf "$folder"
}

start() {  # JOB: runs its command in a process group of its own, its output in its log
  local job=$1
  logs[$job]="$folder/$job.log"
  started[$job]=$((SECONDS - run_started))
  state[$job]=running
  echo "== $job: ${title[$job]} (started at $(clock "${started[$job]}"))"
  setsid bash -c "${command[$job]}" </dev/null >"${logs[$job]}" 2>&1 &
  pid[$job]=$!
  tail -n +1 -F --pid="${pid[$job]}" "${logs[$job]}" 2>/dev/null | PROGRESS_PREFIX="[$job] " scripts/progress.sh &
  follower[$job]=$!
}

finish() {  # JOB: records how its command ended and shows its end (or its failures)
  local job=$1 status=0
  wait "${pid[$job]}" || status=$?
  wait "${follower[$job]}" || true
  took[$job]=$((SECONDS - run_started - started[$job]))
  if ((status == 0)); then
    state[$job]=passed
    echo "== $job: passed in $(clock "${took[$job]}")"
    tail -n "${tail_lines[$job]:-0}" "${logs[$job]}" | sed "s/^/[$job] /"
  else
    state[$job]="failed (exit $status)"
    echo "== $job: FAILED (exit $status) after $(clock "${took[$job]}")"
    grep -E -A 12 "✘|WARNING: ThreadSanitizer|error:|Fatal error|FAILED|Error" "${logs[$job]}" | head -n 300 | sed "s/^/[$job] /" || true
    tail -n 60 "${logs[$job]}" | sed "s/^/[$job] /"
  fi
}

echo "== setup: Debian's packages (scripts/setup.sh --test-packages)"
scripts/setup.sh --test-packages
state[setup]=passed started[setup]=0 took[setup]=$((SECONDS - run_started)) title[setup]="Debian's packages (scripts/setup.sh --test-packages)"
trap stop_everything EXIT

if [[ -v wanted[unit] ]]; then
  # CI runs no database: the PostgreSQL store's unit tests get a cluster in a temporary folder,
  # stopped and removed however this script ends.
  cluster=$(python3 tests/live/postgres.py start)
  export MINERVA_TEST_POSTGRES="${cluster#* }"
fi

# Until every wanted job has ended: start each one whose needs have passed (or skip it when one
# of them did not), and collect those that ended.
while true; do
  waiting=0
  for job in "${jobs[@]}"; do
    [[ -v "wanted[$job]" ]] || continue
    case "${state[$job]:-}" in
      "")
        blocked="" ready=true
        for need in ${needs[$job]:-}; do
          case "${state[$need]:-}" in
            passed) ;;
            "" | running) ready=false ;;
            *) blocked=$need ;;
          esac
        done
        for earlier in ${after[$job]:-}; do
          [[ ! -v "wanted[$earlier]" ]] || [[ "${state[$earlier]:-running}" != running ]] || ready=false
        done
        # one build at a time: two SwiftPM builds side by side each fill both cores, and take
        # longer together than one after the other
        if [[ "$job" == build-* ]]; then
          for other in "${!state[@]}"; do
            [[ "$other" != build-* || "${state[$other]}" != running ]] || ready=false
          done
        fi
        if [[ -n "$blocked" ]]; then
          state[$job]="skipped ($blocked did not pass)" started[$job]=$((SECONDS - run_started)) took[$job]=0
        elif $ready; then
          start "$job"
        fi
        waiting=1
        ;;
      running)
        if kill -0 "${pid[$job]}" 2>/dev/null; then waiting=1; else finish "$job"; fi
        ;;
    esac
  done
  ((waiting)) || break
  sleep 1
done

for job in "${!state[@]}"; do
  [[ "${state[$job]}" == passed ]] || exit 1
done
