#!/usr/bin/env bash
# Runs every test of Minerva Server, installing what is missing first:
# unit tests (swift test, then the concurrent ones under ThreadSanitizer; the PostgreSQL store's
# against a private cluster started here and removed on exit), live HTTP tests
# against the release binary (pytest with urllib, curl and raw sockets; a kill -9 crash test on
# the SQLite store; three instances on private PostgreSQL clusters behind nginx, with the database
# stopped and frozen; a real browser on the web client), the Swift client (Client/: its committed
# HTTP layer checked against openapi.yaml, its tests against the same binary, its DocC catalog
# built), the README walkthrough,
# schemathesis against openapi.yaml (checked as a closed world), OpenAPI Generator and
# openapi-python-client on it (a generated Python client drives a session), stores written by an
# earlier release read back (tests/migration), the spec validator and hadolint; and it prints the hot
# path's instructions per request (Benchmarks/hot-path.sh), so that a change that moves them
# shows in review.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh --test

echo "== a private PostgreSQL cluster for the unit tests of the PostgreSQL store"
# CI runs no database: start one in a temporary folder, and stop and remove it however we exit.
cluster=$(.venv/bin/python tests/live/postgres.py start)
trap '.venv/bin/python tests/live/postgres.py stop "${cluster%% *}"' EXIT
export MINERVA_TEST_POSTGRES="${cluster#* }"

# Runs a test command, printing as it goes the build's start and end and each test suite as it
# finishes (so that the log never sits still for minutes), then the end of its output; and every
# failure and sanitizer report in full when it fails (the end alone would not name the test).
run_swift_tests() {
  local lines=$1 log status
  shift
  log=$(mktemp)
  set +e
  "$@" 2>&1 | tee "$log" | grep --line-buffered -E '^(Building for|Build complete|Build of)|^[✔✘] Suite '
  status=${PIPESTATUS[0]}
  set -e
  if ((status != 0)); then
    grep -E -A 12 "✘|WARNING: ThreadSanitizer|error:|Fatal error" "$log" | head -n 300 || true
  fi
  tail -n "$lines" "$log"
  rm -f "$log"
  return "$status"
}

echo "== unit tests (swift test)"
run_swift_tests 40 swift test --parallel

echo "== the concurrent tests again under ThreadSanitizer"
run_swift_tests 15 swift test --scratch-path .build-tsan --sanitize=thread \
  --filter 'ConcurrencyTests|HTTPServerTests|APITests|RandomOperationTests|CoreFaultTests|SharedStoreTests|CorePropertyTests|PostgresStoreTests|DeferredAnswerTests|AnalyticsRecordingTests|PostgresAnalyticsTests'

echo "== release build"
scripts/build.sh >/dev/null

echo "== the Swift client's generated HTTP layer is that of openapi.yaml"
scripts/generate-swift-client.sh --check

echo "== the Swift client against the release binary (swift test --package-path Client)"
MINERVA_BIN="$PWD/.build/release/minerva-server" run_swift_tests 15 swift test --package-path Client

echo "== the Swift client's DocC catalog builds, every symbol link resolved (docc)"
scripts/build-swift-client-docs.sh

echo "== openapi.yaml is a valid OpenAPI 3.1 document"
.venv/bin/openapi-spec-validator openapi.yaml

echo "== Dockerfile lint (hadolint)"
.venv/bin/hadolint Dockerfile

echo "== the hot path: instructions per request, in process (callgrind; a figure, not a test: compare with BENCHMARKS.md)"
Benchmarks/hot-path.sh

echo "== live HTTP tests, README walkthrough and schemathesis (pytest)"
.venv/bin/pytest -q -p no:cacheprovider tests/live
