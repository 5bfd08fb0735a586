#!/usr/bin/env bash
# Fair shares under pressure (BENCHMARKS.md, "Several addresses cannot lock out another"): the
# release binary with its defaults (--max-connections 4096, --max-connections-per-ip 1024,
# --shed-after 1) against 5 x 1,024 and 8 x 512 connections trickling from 127.0.0.2 and up, and,
# as the yardstick of issue 13, 4,200 from 127.0.0.1 alone; a client on 127.0.0.9 (127.0.0.2 for
# the yardstick) times its requests on new connections meanwhile. Prints one line per run: the
# client's latencies, what the attackers held, what the server shed and refused, and its CPU.
#
#   Benchmarks/run-fair-shares.sh            # 3 rounds: about 5 minutes after the build
#   ROUNDS=1 Benchmarks/run-fair-shares.sh
#
# Needs about 10,000 open files (the test raises its soft limit up to the hard one, ulimit -Hn)
# and the loopback addresses 127.0.0.2-11 (Linux routes all of 127/8 to lo).
# MINERVA_BIN: a binary to measure instead of building the working tree's.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
if [ "$(ulimit -Hn)" != unlimited ] && [ "$(ulimit -Hn)" -lt 12000 ]; then
    echo "needs about 10,000 open files; the hard limit (ulimit -Hn) is $(ulimit -Hn)" >&2
    exit 1
fi
if [ -z "${MINERVA_BIN:-}" ]; then scripts/build.sh >/dev/null; fi
PYTEST=${PYTEST:-.venv/bin/pytest}
for round in $(seq "$ROUNDS"); do
    echo "round $round, load average $(cut -d' ' -f1 /proc/loadavg)"
    "$PYTEST" -q -s -p no:cacheprovider tests/live/test_fair_shares.py \
        tests/live/test_lockout.py::test_one_address_cannot_lock_out_another | grep -E '^127\.0\.0\.[0-9]+ during'
done
