#!/usr/bin/env bash
# HTTP benchmark: minerva-server against a minimal Hummingbird 2 server (hummingbird-peer) that
# answers the same requests with the same bytes. Both run on loopback with 2 worker threads;
# wrk loads them in turn (minerva, minerva with SQLite, peer, minerva, …) and the table gives the
# medians and the ratios minerva/peer and SQLite/memory. Compare the ratios, not the absolute
# figures, across machines or days.
#
#   Benchmarks/run-http.sh     # 3 rounds of 10 s per server and scenario: about 12-13 minutes after the builds
#   ROUNDS=5 DURATION=20s Benchmarks/run-http.sh
#   ROUNDS=1 DURATION=2s WARMUP=1s Benchmarks/run-http.sh     # a smoke run: about 2 minutes
#
# Settings (environment):
#   ROUNDS (3), DURATION (10s), WARMUP (3s), WRK_THREADS (2), SERVER_THREADS (2)
#   Connection counts per scenario; an empty list leaves that scenario out:
#     HEALTH_CONNECTIONS ("64": GET /healthz, the HTTP layer alone, as a yardstick),
#     GET_CONNECTIONS ("64 256": GET /v1/sessions/{id}),
#     PUSH_POP_CONNECTIONS ("64 256": POST push and pop in turn),
#     LIST_PUT_CONNECTIONS ("64 256": PUT /v1/sessions/{id}/nodes/{node}/list, 20 items, wrk/list_put.lua).
#     For example: HEALTH_CONNECTIONS= PUSH_POP_CONNECTIONS= LIST_PUT_CONNECTIONS= GET_CONNECTIONS=256 Benchmarks/run-http.sh
#   LIST_PUT_SESSIONS (4): sessions per connection in the list PUT scenario; LIST_NODE (n1): the
#     node whose list is replaced (the demo app's home tab root).
#   SQLITE_SCENARIOS ("get push-pop list-put"): the scenarios that are also run against
#     minerva-server with --store sqlite:FILE (the cost of durability), as a third server in every
#     round. Each of its runs gets a fresh server process and a fresh database in SQLITE_DIR
#     (default: the results folder), deleted after the run, and its own warm-up of WARMUP.
#     SQLITE_SCENARIOS= leaves them out.
#   MAX_OTHER_LOAD (0.15), RETRIES (4): a run during which other processes used more than
#     MAX_OTHER_LOAD cores is measured again, up to RETRIES times, and marked "busy" if it never
#     got a quiet machine; the medians leave busy rounds out where there are quiet ones.
#   MINERVA_BIN, PEER_BIN: binaries to measure instead of building the working tree's.
#   MINERVA_STORE (memory), MINERVA_ARGS (more options, e.g. "--log-level notice"); MINERVA_ARGS
#     apply to the SQLite runs as well.
# Raw wrk output, logs and the table go to Benchmarks/.build/http-results/<time>/.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"

rounds="${ROUNDS:-3}"
duration="${DURATION:-10s}"
warmup="${WARMUP:-3s}"
wrk_threads="${WRK_THREADS:-2}"
server_threads="${SERVER_THREADS:-2}"
get_connections="${GET_CONNECTIONS-64 256}"
push_pop_connections="${PUSH_POP_CONNECTIONS-64 256}"
list_put_connections="${LIST_PUT_CONNECTIONS-64 256}"
health_connections="${HEALTH_CONNECTIONS-64}"
list_put_sessions="${LIST_PUT_SESSIONS:-4}"
list_node="${LIST_NODE:-n1}"
sqlite_scenarios="${SQLITE_SCENARIOS-get push-pop list-put}"
max_other_load="${MAX_OTHER_LOAD:-0.15}"
retries="${RETRIES:-4}"

log() { printf 'run-http: %s\n' "$*" >&2; }

# ---- tools ----
missing=()
for package in wrk curl; do
  command -v "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]})); then
  sudo=""
  [[ "$(id -u)" == 0 ]] || sudo="sudo"
  log "installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# ---- builds (release) ----
if [[ -n "${MINERVA_BIN:-}" ]]; then
  minerva_bin="$MINERVA_BIN"
  minerva_label="$minerva_bin"
  log "using $minerva_bin (MINERVA_BIN)"
else
  log "building minerva-server (scripts/build.sh)"
  "$root/scripts/setup.sh"
  "$root/scripts/build.sh"
  minerva_bin="$root/.build/release/minerva-server"
  minerva_label="$(git -C "$root" describe --always --dirty 2>/dev/null || echo 'an unknown revision')"
fi

# The per-session rate limit (if this minerva-server has one) is set far above what wrk can
# reach, so that its check still runs on every request but never answers 429. Sessions are kept
# in memory (if the server has --store), as the peer keeps nothing; MINERVA_STORE=sqlite:PATH
# measures durable sessions instead.
minerva_help="$("$minerva_bin" --help 2>&1 || true)"
common_args=(--host 127.0.0.1 --port 0 --threads "$server_threads")
# The app every figure was taken with: one tab bar (the built-in demo app before root flows).
if grep -q -- '--app' <<<"$minerva_help"; then
  common_args+=(--app "$root/tests/live/apps/tabs.json")
fi
if grep -q -- '--rate-limit' <<<"$minerva_help"; then
  common_args+=(--rate-limit 1000000000 --rate-burst 1000000000)
fi
# wrk's connections all come from 127.0.0.1, as a proxy's would: as behind a proxy, the
# per-address connection limit is raised to the total.
if grep -q -- '--max-connections-per-ip' <<<"$minerva_help"; then
  common_args+=(--max-connections-per-ip 4096)
fi
# MINERVA_ARGS: more options, e.g. "--log-level notice" to leave out the per-request log lines.
read -r -a extra_args <<<"${MINERVA_ARGS:-}"
minerva_args=("${common_args[@]}")
if grep -q -- '--store' <<<"$minerva_help"; then
  minerva_args+=(--store "${MINERVA_STORE:-memory}")
else
  [[ -z "$sqlite_scenarios" ]] || log "this minerva-server has no --store option: no SQLite runs"
  sqlite_scenarios=""
fi
minerva_args+=("${extra_args[@]}")
# The SQLite runs: the same options with --store sqlite:FILE (added per run, see start_sqlite).
sqlite_args=("${common_args[@]}" "${extra_args[@]}")

if [[ -n "${PEER_BIN:-}" ]]; then
  peer_bin="$PEER_BIN"
  log "using $peer_bin (PEER_BIN)"
else
  log "building hummingbird-peer (swift build -c release in Benchmarks; the first build takes minutes)"
  swift build -c release --package-path "$here" --product hummingbird-peer
  peer_bin="$(swift build -c release --package-path "$here" --show-bin-path)/hummingbird-peer"
fi

results="$here/.build/http-results/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$results"
sqlite_dir="${SQLITE_DIR:-$results/sqlite}"
[[ -z "$sqlite_scenarios" ]] || mkdir -p "$sqlite_dir"
list_bodies="$here/wrk/list_put"

# ---- servers ----
pids=()
sqlite_pid=""
sqlite_db=""
cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
  [[ -z "$sqlite_db" ]] || rm -f "$sqlite_db" "$sqlite_db-wal" "$sqlite_db-shm"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start NAME COMMAND… : starts a server on a free port and sets $port to the port it logs.
# Standard error is appended to NAME.log (O_APPEND, so that trim_log can empty it while the
# server writes); what it logged up to the address is kept in NAME.start.log.
start() {
  local name="$1"
  shift
  : >"$results/$name.log"
  "$@" 2>>"$results/$name.log" &
  pids+=("$!")
  local pid="$!"
  port=""
  for _ in $(seq 100); do
    port="$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9][0-9]*\).*|\1|p' "$results/$name.log" | head -n 1)"
    # Not logged (a --log-level above info)? Ask the kernel which port the process listens on.
    if [[ -z "$port" ]] && command -v ss >/dev/null 2>&1; then
      port="$(ss -Hltnp 2>/dev/null | grep "pid=$pid," | sed -n 's/.*127\.0\.0\.1:\([0-9][0-9]*\) .*/\1/p' | head -n 1 || true)"
    fi
    if [[ -n "$port" ]]; then
      cp "$results/$name.log" "$results/$name.start.log"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  log "$name did not start; its log:"
  cat "$results/$name.log" >&2
  exit 1
}

# trim_log NAME : keeps the last 64 KiB of NAME.log in NAME.last.log and empties NAME.log.
# minerva-server logs every request at its default level (info): some 30 MB per 10 s run. A
# regular file costs the server about what /dev/null would; a pipe to a reader would cost it
# wake-ups and take CPU time of its own.
trim_log() {
  tail -c 65536 "$results/$1.log" >"$results/$1.last.log"
  : >"$results/$1.log"
}

# start_sqlite : starts minerva-server with --store sqlite:FILE on a fresh FILE in SQLITE_DIR
# (sets sqlite_port and sqlite_pid); stop_sqlite stops it and deletes the database. Every SQLite
# run gets its own process and database, so that no run inherits another's file or WAL.
sqlite_runs=0
start_sqlite() {
  stop_sqlite
  sqlite_runs=$((sqlite_runs + 1))
  sqlite_db="$sqlite_dir/run-$sqlite_runs.sqlite"
  rm -f "$sqlite_db" "$sqlite_db-wal" "$sqlite_db-shm"
  start sqlite "$minerva_bin" "${sqlite_args[@]}" --store "sqlite:$sqlite_db"
  sqlite_port="$port"
  sqlite_pid="${pids[-1]}"
}
stop_sqlite() {
  [[ -n "$sqlite_pid" ]] || return 0
  kill "$sqlite_pid" 2>/dev/null || true
  local waited=0
  while kill -0 "$sqlite_pid" 2>/dev/null && ((waited < 100)); do
    sleep 0.1
    waited=$((waited + 1))
  done
  kill -9 "$sqlite_pid" 2>/dev/null || true
  wait "$sqlite_pid" 2>/dev/null || true
  local pid kept=()
  for pid in "${pids[@]}"; do
    [[ "$pid" == "$sqlite_pid" ]] || kept+=("$pid")
  done
  pids=("${kept[@]}")
  sqlite_pid=""
  rm -f "$sqlite_db" "$sqlite_db-wal" "$sqlite_db-shm"
  sqlite_db=""
}

start minerva "$minerva_bin" "${minerva_args[@]}"
minerva_port="$port"
minerva_pid="${pids[-1]}"

# sessions PORT COUNT FILE [LIST_BODY] : creates COUNT demo sessions on the minerva-server at PORT,
# one "ID TOKEN" a line, and PUTs LIST_BODY (a file) to each one's LIST_NODE if given. One curl
# for all of them, on one connection. hummingbird-peer accepts any id and bearer token, so it is
# given the same files.
sessions() {
  local port="$1" count="$2" file="$3" body="${4:-}" config="$results/curl.config"
  local base="http://127.0.0.1:$port/v1/sessions"
  : >"$config"
  local separator=""
  for _ in $(seq "$count"); do
    printf '%surl = "%s"\nrequest = "POST"\nwrite-out = "\\n"\n' "$separator" "$base" >>"$config"
    separator=$'next\n'
  done
  curl -sS -K "$config" | sed -n 's/^{"id":"\([^"]*\)","token":"\([^"]*\)".*/\1 \2/p' >"$file"
  local made
  made="$(wc -l <"$file")"
  if ((made != count)); then
    log "POST /v1/sessions on port $port made $made sessions, not $count"
    exit 1
  fi
  [[ -n "$body" ]] || return 0
  : >"$config"
  local id token
  separator=""
  while read -r id token; do
    printf '%surl = "%s/%s/nodes/%s/list"\nrequest = "PUT"\nheader = "Authorization: Bearer %s"\n' \
      "$separator" "$base" "$id" "$list_node" "$token" >>"$config"
    separator=$'next\n'
    printf 'header = "Content-Type: application/json"\ndata-binary = "@%s"\noutput = "/dev/null"\nwrite-out = "%%{http_code}\\n"\n' \
      "$body" >>"$config"
  done <"$file"
  local answers
  answers="$(curl -sS -K "$config" | sort | uniq -c | tr -s ' ' | paste -sd ',' -)"
  if [[ "$answers" != " $count 200" ]]; then
    log "list PUTs on port $port answered (count status):$answers"
    exit 1
  fi
}

# call PORT ID TOKEN METHOD OPERATION BODY OUTPUT : one request; the body goes to OUTPUT,
# the headers to OUTPUT.headers. A BODY that starts with @ names a file.
call() {
  local port="$1" id="$2" token="$3" method="$4" operation="$5" body="$6" output="$7"
  local args=(-sS --fail -X "$method" -D "$output.headers" -o "$output" -H "Authorization: Bearer $token")
  [[ "$method" == POST || "$method" == PUT ]] && args+=(-H "Content-Type: application/json" --data-binary "$body")
  curl "${args[@]}" "http://127.0.0.1:$port/v1/sessions/$id$operation"
}

# The documents the peer answers with: Minerva's own answers to a fresh session's GET, push
# and pop, captured now, so that they match whatever the demo app and the format are today.
# And its answers to list PUTs of wrk/list_put's bodies in their cycle (c, then a, b, c: the
# first one makes the list), each kept as list-put-LENGTH.json after the length of the body
# that it answers, which is how the peer picks one.
mkdir -p "$results/documents"
sessions "$minerva_port" 1 "$results/probe-session.txt"
read -r probe_id probe_token <"$results/probe-session.txt"
call "$minerva_port" "$probe_id" "$probe_token" GET "" "" "$results/documents/get.json"
call "$minerva_port" "$probe_id" "$probe_token" POST /push '{"screen":"profile","params":{"userId":"1"}}' "$results/documents/push.json"
call "$minerva_port" "$probe_id" "$probe_token" POST /pop '{}' "$results/documents/pop.json"
list_lengths=()
if [[ -n "$list_put_connections" ]]; then
  sessions "$minerva_port" 1 "$results/probe-list-session.txt" "$list_bodies/c.json"
  read -r probe_id probe_token <"$results/probe-list-session.txt"
  for what in a b c; do
    length="$(wc -c <"$list_bodies/$what.json")"
    list_lengths+=("$length")
    call "$minerva_port" "$probe_id" "$probe_token" PUT "/nodes/$list_node/list" "@$list_bodies/$what.json" \
      "$results/documents/list-put-$length.json"
  done
  if (($(printf '%s\n' "${list_lengths[@]}" | sort -u | wc -l) != 3)); then
    log "wrk/list_put's bodies must differ in length (they are ${list_lengths[*]} bytes), so that the peer can tell them apart"
    exit 1
  fi
fi

start peer "$peer_bin" --host 127.0.0.1 --port 0 --threads "$server_threads" --documents "$results/documents"
peer_port="$port"
peer_pid="${pids[-1]}"
log "minerva-server on port $minerva_port, hummingbird-peer on port $peer_port, $server_threads threads each"

# cpu_ticks PID : user + system CPU time the process has used, in clock ticks.
cpu_ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
# busy_ticks : "busy softirq elapsed" clock ticks of all cores together, from /proc/stat.
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
ticks_per_second="$(getconf CLK_TCK)"
# kthread_ticks : CPU time of all kernel threads (the children of kthreadd, pid 2), in clock ticks:
# writeback and journal work, such as the SQLite runs cause, which /proc charges to no process.
kthread_ticks() {
  cat /proc/[0-9]*/stat 2>/dev/null | awk '{ sub(/^.*\) /, ""); split($0, f, " "); if (f[2] == 2) s += f[12] + f[13] } END { print s + 0 }'
}

# ---- same answers? ----
# A fresh session's GET and push, and the list PUTs of a session that has list c, asked of both
# servers: the bodies must be the same bytes.
sessions "$minerva_port" 1 "$results/get-session.txt"
read -r get_id get_token <"$results/get-session.txt"
sessions "$minerva_port" 1 "$results/check-session.txt"
read -r check_id check_token <"$results/check-session.txt"
compared=(get push)
if [[ -n "$list_put_connections" ]]; then
  sessions "$minerva_port" 1 "$results/check-list-session.txt" "$list_bodies/c.json"
  read -r list_id list_token <"$results/check-list-session.txt"
  compared+=(list-put-a list-put-b list-put-c)
fi
for name in minerva peer; do
  port_var="${name}_port"
  call "${!port_var}" "$get_id" "$get_token" GET "" "" "$results/$name-get.body"
  call "${!port_var}" "$check_id" "$check_token" POST /push '{"screen":"profile","params":{"userId":"1"}}' "$results/$name-push.body"
  if [[ -n "$list_put_connections" ]]; then
    for what in a b c; do
      call "${!port_var}" "$list_id" "$list_token" PUT "/nodes/$list_node/list" "@$list_bodies/$what.json" \
        "$results/$name-list-put-$what.body"
    done
  fi
done
for what in "${compared[@]}"; do
  if ! cmp -s "$results/minerva-$what.body" "$results/peer-$what.body"; then
    log "the two servers answer $what with different bodies:"
    diff <(cat "$results/minerva-$what.body"; echo) <(cat "$results/peer-$what.body"; echo) >&2 || true
    exit 1
  fi
done
same="GET $(wc -c <"$results/minerva-get.body") bytes, push $(wc -c <"$results/minerva-push.body") bytes"
if [[ -n "$list_put_connections" ]]; then
  same+=", list PUT $(wc -c <"$results/minerva-list-put-a.body")/$(wc -c <"$results/minerva-list-put-b.body")/$(wc -c <"$results/minerva-list-put-c.body") bytes"
fi
log "identical bodies: $same; GET headers:"
for name in minerva peer; do
  printf '  %s: %s\n' "$name" "$(tr -d '\r' <"$results/$name-get.body.headers" | sed -n '2,$p' | grep -v '^$' | paste -sd '|' -)" >&2
done
# header_names FILE : the answer's header names, lower case, sorted, on one line.
header_names() { tr -d '\r' <"$1" | sed -n '2,$s/:.*//p' | grep -v '^$' | tr 'A-Z' 'a-z' | sort | paste -sd ' ' -; }
header_warning=""
for what in "${compared[@]}"; do
  if [[ "$(header_names "$results/minerva-$what.body.headers")" != "$(header_names "$results/peer-$what.body.headers")" ]]; then
    header_warning+="WARNING: the servers answer $what with different header fields; update hummingbird-peer. "
  fi
done
[[ -z "$header_warning" ]] || log "$header_warning"

# ---- wrk ----
# measure SCENARIO CONNECTIONS SERVER ROUND SCRIPT SESSIONS_FILE SECONDS : one wrk run; sets
# last_run to "scenario connections server round rps p50_us p99_us server_cpu_us_per_request
# wrk_cpu_us_per_request other_cores kernel_thread_cores" and fails if other processes used more than
# MAX_OTHER_LOAD cores meanwhile. Any error, non-2xx answer or push/pop mix-up stops the script.
# The server's CPU time per request is read from /proc: it depends less than req/s on how the
# 2 cores are shared with wrk and with whatever else the machine runs.
measure() {
  local scenario="$1" connections="$2" server="$3" round="$4" script="$5" file="$6" length="$7"
  local port_var="${server}_port" pid_var="${server}_pid" out="$results/$scenario-c$connections-$server-$round.txt"
  local ticks_before ticks_after wrk_cpu machine_before machine_after kthreads_before kthreads_after TIMEFORMAT='%U %S'
  kthreads_before="$(kthread_ticks)"
  ticks_before="$(cpu_ticks "${!pid_var}")"
  machine_before="$(busy_ticks)"
  # bash's time: wrk's own user and system CPU seconds, the load generator's share of the cores.
  wrk_cpu="$( { time WRK_THREADS="$wrk_threads" SESSIONS_FILE="$file" LIST_NODE="$list_node" \
    wrk -t "$wrk_threads" -c "$connections" -d "$length" --latency -s "$here/wrk/$script" \
    "http://127.0.0.1:${!port_var}" >"$out" 2>&1; } 2>&1 )" || { cat "$out" >&2; exit 1; }
  ticks_after="$(cpu_ticks "${!pid_var}")"
  machine_after="$(busy_ticks)"
  kthreads_after="$(kthread_ticks)"
  trim_log "$server"
  local result
  result="$(grep '^WRK_RESULT ' "$out" || true)"
  if [[ -z "$result" ]]; then
    log "wrk printed no result:"
    cat "$out" >&2
    exit 1
  fi
  field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$result"; }
  local errors=0 name
  for name in errors_connect errors_read errors_write errors_status errors_timeout; do
    errors=$((errors + $(field "$name")))
  done
  if grep -q '^WRK_PUSH_POP ' "$out" && ! grep -q '^WRK_PUSH_POP starved=0 unmatched=0$' "$out"; then
    errors=$((errors + 1))
  fi
  if ((errors > 0)); then
    log "$scenario c=$connections $server round $round had errors:"
    cat "$out" >&2
    exit 1
  fi
  # List PUTs that repeated the list they replaced (see wrk/list_put.lua): noted, not fatal.
  local empty
  empty="$(sed -n 's/^WRK_LIST_PUT empty=\([0-9]*\)$/\1/p' "$out")"
  if [[ -n "$empty" && "$empty" != 0 ]]; then
    log "WARNING: $scenario c=$connections $server round $round: $empty list PUTs had an empty diff"
    printf '%s c=%s %s round %s: %s list PUTs had an empty diff\n' "$scenario" "$connections" "$server" "$round" "$empty" \
      >>"$results/warnings.txt"
  fi
  # Cores used by everything but this server, wrk, the kernel's softirq work for them and kernel
  # threads (kthreads: SQLite's writeback and journal work, about 0.04 cores in a push/pop run).
  local other kthreads
  read -r other kthreads < <(awk -v b="$machine_before" -v a="$machine_after" -v s=$((ticks_after - ticks_before)) \
    -v w="$wrk_cpu" -v k=$((kthreads_after - kthreads_before)) -v hz="$ticks_per_second" -v cores="$(nproc)" 'BEGIN {
      split(b, x, " "); split(a, y, " "); split(w, t, " ")
      elapsed = (y[3] - x[3]) / cores
      other = (y[1] - x[1]) - s - (t[1] + t[2]) * hz - (y[2] - x[2]) - k
      printf "%.2f %.2f\n", (other < 0 ? 0 : other) / elapsed, (k < 0 ? 0 : k) / elapsed
    }')
  local rps p50 p99 cpu client
  rps="$(field rps)"
  p50="$(field p50_us)"
  p99="$(field p99_us)"
  cpu="$(awk -v t=$((ticks_after - ticks_before)) -v hz="$ticks_per_second" -v n="$(field requests)" \
    'BEGIN { printf "%.2f", t * 1e6 / hz / n }')"
  client="$(awk -v w="$wrk_cpu" -v n="$(field requests)" 'BEGIN { split(w, t, " "); printf "%.2f", (t[1] + t[2]) * 1e6 / n }')"
  log "$(printf '%-9s c=%-3s %-7s %-6s %9s req/s  p50 %6.2f ms  p99 %6.2f ms  CPU/req: server %5s us, wrk %5s us; others %s cores, kthreads %s' \
    "$scenario" "$connections" "$server" "$round" "$rps" "$(awk -v u="$p50" 'BEGIN { print u / 1000 }')" \
    "$(awk -v u="$p99" 'BEGIN { print u / 1000 }')" "$cpu" "$client" "$other" "$kthreads")"
  last_run="$scenario $connections $server $round $rps $p50 $p99 $cpu $client $other $kthreads"
  awk -v o="$other" -v m="$max_other_load" 'BEGIN { exit !(o <= m) }'
}

# The wrk script of each scenario.
script_of() {
  case "$1" in
    health) echo health.lua ;;
    get) echo get_state.lua ;;
    push-pop) echo push_pop.lua ;;
    list-put) echo list_put.lua ;;
  esac
}

# prepare SCENARIO CONNECTIONS SERVER : gets SERVER ready for one run and sets run_file to the
# sessions file to give wrk.
# - sqlite: a fresh server process and database, the run's sessions made on it, and a warm-up
#   of WARMUP (then fresh sessions again for push/pop and list PUT, so that the run starts from
#   the same state as minerva's);
# - minerva: fresh sessions for push/pop (each starts from the demo app's root, however the
#   previous run ended: wrk stops with pushes in flight) and for list PUT (each with list c, so
#   that the first PUT is a diff); GET uses one session for the whole script;
# - peer: minerva's latest sessions file for the scenario (the peer keeps nothing, so any ids do).
prepare() {
  local scenario="$1" connections="$2" server="$3" port
  if [[ "$server" == sqlite ]]; then
    start_sqlite
    port="$sqlite_port"
    make_sessions "$scenario" "$connections" "$port" "$results/$scenario-sqlite-sessions.txt"
    measure "$scenario" "$connections" sqlite warmup "$(script_of "$scenario")" "$run_file" "$warmup" || true
    [[ "$scenario" == get || "$scenario" == health ]] ||
      make_sessions "$scenario" "$connections" "$port" "$results/$scenario-sqlite-sessions.txt"
  elif [[ "$server" == minerva ]]; then
    make_sessions "$scenario" "$connections" "$minerva_port" "$results/$scenario-sessions.txt"
  else
    case "$scenario" in
      health) run_file=/dev/null ;;
      get) run_file="$results/get-session.txt" ;;
      *) run_file="$results/$scenario-sessions.txt" ;;
    esac
  fi
}
# make_sessions SCENARIO CONNECTIONS PORT FILE : the sessions a run needs; sets run_file.
make_sessions() {
  local scenario="$1" connections="$2" port="$3" file="$4"
  case "$scenario" in
    health) run_file=/dev/null; return 0 ;;
    get)
      if [[ "$port" == "$minerva_port" ]]; then
        run_file="$results/get-session.txt"
        return 0
      fi
      sessions "$port" 1 "$file"
      ;;
    push-pop) sessions "$port" "$connections" "$file" ;;
    list-put) sessions "$port" $((connections * list_put_sessions)) "$file" "$list_bodies/c.json" ;;
  esac
  run_file="$file"
}
# finish SERVER : after a run; a SQLite server is stopped and its database deleted.
finish() {
  [[ "$1" != sqlite ]] || stop_sqlite
}

# round SCENARIO CONNECTIONS SERVER ROUND : prepare and measure, again while other processes
# were busy, and keep the run in results.txt (busy or quiet).
round() {
  local attempt quiet=busy
  for attempt in $(seq 0 "$retries"); do
    prepare "$1" "$2" "$3"
    if measure "$1" "$2" "$3" "$4" "$(script_of "$1")" "$run_file" "$duration"; then
      quiet=quiet
      finish "$3"
      break
    fi
    finish "$3"
    ((attempt < retries)) && log "other processes were busy; measuring again"
  done
  printf '%s %s\n' "$last_run" "$quiet" >>"$results/results.txt"
}

# scenario SCENARIO CONNECTIONS… : warm-ups, then ROUNDS rounds of minerva, minerva with SQLite
# (if SQLITE_SCENARIOS names the scenario) and peer, in turn.
scenario() {
  local scenario="$1" connections server n servers
  shift
  servers=(minerva)
  [[ " $sqlite_scenarios " != *" $scenario "* ]] || servers+=(sqlite)
  servers+=(peer)
  for connections in "$@"; do
    # The SQLite runs warm up each of their fresh servers in prepare.
    for server in minerva peer; do
      prepare "$scenario" "$connections" "$server"
      measure "$scenario" "$connections" "$server" warmup "$(script_of "$scenario")" "$run_file" "$warmup" || true
    done
    for n in $(seq "$rounds"); do
      for server in "${servers[@]}"; do
        round "$scenario" "$connections" "$server" "$n"
      done
    done
  done
}

: >"$results/results.txt"
started_at="$(date +%s)"
# shellcheck disable=SC2086 # the connection lists are word lists
{
  scenario health $health_connections
  scenario get $get_connections
  scenario push-pop $push_pop_connections
  scenario list-put $list_put_connections
}
log "measured in $(( ($(date +%s) - started_at) / 60 )) min $(( ($(date +%s) - started_at) % 60 )) s"

# ---- table ----
# results.txt columns: 1 scenario, 2 connections, 3 server, 4 round, 5 req/s, 6 p50 µs, 7 p99 µs,
# 8 server CPU µs/req, 9 wrk CPU µs/req, 10 other cores, 11 kernel thread cores, 12 quiet|busy.
# median of the values on standard input
median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
pick() { # scenario connections server column
  awk -v s="$1" -v c="$2" -v n="$3" -v col="$4" '$1 == s && $2 == c && $3 == n { print $col }' "$results/results.txt"
}
quiet() { # scenario connections server column: the quiet rounds' values, or all if none was quiet
  awk -v s="$1" -v c="$2" -v n="$3" -v col="$4" '
    $1 == s && $2 == c && $3 == n { all[++a] = $col; if ($12 == "quiet") q[++b] = $col }
    END { if (b) for (i = 1; i <= b; i++) print q[i]; else for (i = 1; i <= a; i++) print all[i] }' "$results/results.txt"
}
rounds_of() { # scenario connections server column divisor decimals
  pick "$1" "$2" "$3" "$4" | awk -v d="$5" -v p="$6" '{ printf "%s%.*f", (NR > 1 ? ", " : ""), p, $1 / d }'
}
busy_rounds() { # scenario connections server
  awk -v s="$1" -v c="$2" -v n="$3" '$1 == s && $2 == c && $3 == n && $12 == "busy" { printf " %s", $4 }' "$results/results.txt"
}
has_runs() { # scenario connections server
  awk -v s="$1" -v c="$2" -v n="$3" '$1 == s && $2 == c && $3 == n { found = 1 } END { exit !found }' "$results/results.txt"
}

{
  printf '| Scenario | Conn. | Store | minerva req/s | peer req/s | **req/s minerva/peer** | req/s SQLite/memory | minerva p50 | minerva p99 | peer p50 | peer p99 | minerva CPU/req | peer CPU/req | **CPU/req peer/minerva** | CPU/req SQLite/memory |\n'
  printf '|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
  while read -r scenario connections; do
    case "$scenario" in
      health) label="GET /healthz (HTTP layer only)" ;;
      get) label="GET /v1/sessions/{id}" ;;
      push-pop) label="POST push + pop" ;;
      list-put) label="PUT …/nodes/$list_node/list (20 items)" ;;
      *) label="$scenario" ;;
    esac
    p_rps="$(quiet "$scenario" "$connections" peer 5 | median)"
    p_p50="$(quiet "$scenario" "$connections" peer 6 | median)"
    p_p99="$(quiet "$scenario" "$connections" peer 7 | median)"
    p_cpu="$(quiet "$scenario" "$connections" peer 8 | median)"
    mem_rps="$(quiet "$scenario" "$connections" minerva 5 | median)"
    mem_cpu="$(quiet "$scenario" "$connections" minerva 8 | median)"
    for server in minerva sqlite; do
      has_runs "$scenario" "$connections" "$server" || continue
      m_rps="$(quiet "$scenario" "$connections" "$server" 5 | median)"
      m_p50="$(quiet "$scenario" "$connections" "$server" 6 | median)"
      m_p99="$(quiet "$scenario" "$connections" "$server" 7 | median)"
      m_cpu="$(quiet "$scenario" "$connections" "$server" 8 | median)"
      store=memory
      [[ "$server" == minerva ]] || store=SQLite
      awk -v l="$label" -v c="$connections" -v st="$store" -v mr="$m_rps" -v pr="$p_rps" -v ml="$m_p50" -v mh="$m_p99" \
        -v pl="$p_p50" -v ph="$p_p99" -v mc="$m_cpu" -v pc="$p_cpu" -v rr="$mem_rps" -v rc="$mem_cpu" 'BEGIN {
        durable_rps = st == "SQLite" ? sprintf("%.2f", mr / rr) : "–"
        durable_cpu = st == "SQLite" ? sprintf("%.2f", mc / rc) : "–"
        printf "| %s | %d | %s | %.0f | %.0f | **%.2f** | %s | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.1f µs | %.1f µs | **%.2f** | %s |\n",
          l, c, st, mr, pr, mr / pr, durable_rps, ml / 1000, mh / 1000, pl / 1000, ph / 1000, mc, pc, pc / mc, durable_cpu
      }'
    done
  done < <(awk '{ print $1, $2 }' "$results/results.txt" | awk '!seen[$0]++')
  printf '\nMedians of %s rounds (the quiet ones, where there are) of %s each (wrk -t%s, --latency; servers with %s threads each; CPU/req is the\n' \
    "$rounds" "$duration" "$wrk_threads" "$server_threads"
  printf "server process's user + system CPU time during the run over its requests; kernel softirq time is in neither\n"
  printf 'column). SQLite rows: minerva-server with --store sqlite:FILE, a fresh process and database per run; "SQLite/memory" is\n'
  printf 'its figure over the memory store'"'"'s in the same run of this script (req/s below 1 and CPU/req above 1: the cost of\n'
  printf 'durability). minerva-server: %s, run with %s; %s, %s cores. Every round:\n\n' \
    "$minerva_label" "${minerva_args[*]}" "$(date -u +%Y-%m-%d)" "$(nproc)"
  [[ -z "$header_warning" ]] || printf '%s\n\n' "$header_warning"
  [[ ! -s "$results/warnings.txt" ]] || { sed 's/^/WARNING: /' "$results/warnings.txt"; echo; }
  while read -r scenario connections; do
    for server in minerva sqlite peer; do
      has_runs "$scenario" "$connections" "$server" || continue
      busy="$(busy_rounds "$scenario" "$connections" "$server")"
      printf -- '- %s c=%s %s: req/s %s; p50 ms %s; p99 ms %s; server CPU µs/req %s; wrk CPU µs/req %s; other processes, cores %s; kernel threads, cores %s%s\n' \
        "$scenario" "$connections" "$server" \
        "$(rounds_of "$scenario" "$connections" "$server" 5 1 0)" "$(rounds_of "$scenario" "$connections" "$server" 6 1000 2)" \
        "$(rounds_of "$scenario" "$connections" "$server" 7 1000 2)" \
        "$(rounds_of "$scenario" "$connections" "$server" 8 1 1)" "$(rounds_of "$scenario" "$connections" "$server" 9 1 1)" \
        "$(rounds_of "$scenario" "$connections" "$server" 10 1 2)" "$(rounds_of "$scenario" "$connections" "$server" 11 1 2)" \
        "${busy:+ (busy machine in round$busy)}"
    done
  done < <(awk '{ print $1, $2 }' "$results/results.txt" | awk '!seen[$0]++')
} | tee "$results/table.md"
log "raw results in $results"
