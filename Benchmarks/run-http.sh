#!/usr/bin/env bash
# HTTP benchmark: minerva-server against a minimal Hummingbird 2 server (hummingbird-peer) that
# answers the same requests with the same bytes. Both run on loopback with 2 worker threads;
# wrk loads them in turn (minerva, peer, minerva, peer …) and the table gives the medians and
# the ratio minerva/peer. Compare the ratios, not the absolute figures, across machines or days.
#
#   Benchmarks/run-http.sh     # 3 rounds of 10 s per server and scenario: about 5 minutes after the builds
#   ROUNDS=5 DURATION=20s Benchmarks/run-http.sh
#
# Settings (environment):
#   ROUNDS (3), DURATION (10s), WARMUP (3s), WRK_THREADS (2), SERVER_THREADS (2)
#   GET_CONNECTIONS ("64 256"), PUSH_POP_CONNECTIONS ("64"), HEALTH_CONNECTIONS ("64": GET /healthz,
#     the HTTP layer alone, as a yardstick). An empty list leaves that scenario out:
#     HEALTH_CONNECTIONS= PUSH_POP_CONNECTIONS= GET_CONNECTIONS=256 Benchmarks/run-http.sh
#   MAX_OTHER_LOAD (0.15), RETRIES (4): a run during which other processes used more than
#     MAX_OTHER_LOAD cores is measured again, up to RETRIES times, and marked "busy" if it never
#     got a quiet machine; the medians leave busy rounds out where there are quiet ones.
#   MINERVA_BIN, PEER_BIN: binaries to measure instead of building the working tree's.
#   MINERVA_STORE (memory), MINERVA_ARGS (more options, e.g. "--log-level notice").
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
push_pop_connections="${PUSH_POP_CONNECTIONS-64}"
health_connections="${HEALTH_CONNECTIONS-64}"
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
minerva_args=(--host 127.0.0.1 --port 0 --threads "$server_threads")
if grep -q -- '--rate-limit' <<<"$minerva_help"; then
  minerva_args+=(--rate-limit 1000000000 --rate-burst 1000000000)
fi
if grep -q -- '--store' <<<"$minerva_help"; then
  minerva_args+=(--store "${MINERVA_STORE:-memory}")
fi
# MINERVA_ARGS: more options, e.g. "--log-level notice" to leave out the per-request log lines.
read -r -a extra_args <<<"${MINERVA_ARGS:-}"
minerva_args+=("${extra_args[@]}")

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

# ---- servers ----
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
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

start minerva "$minerva_bin" "${minerva_args[@]}"
minerva_port="$port"
minerva_pid="${pids[-1]}"

# sessions COUNT FILE : creates COUNT demo sessions on minerva-server, one "ID TOKEN" a line.
# hummingbird-peer accepts any id and bearer token, so it is given the same file.
sessions() {
  local count="$1" file="$2" answer line
  : >"$file"
  for _ in $(seq "$count"); do
    answer="$(curl -sS --fail -X POST "http://127.0.0.1:$minerva_port/v1/sessions")"
    line="$(printf '%s' "$answer" | sed -n 's/^{"id":"\([^"]*\)","token":"\([^"]*\)".*/\1 \2/p')"
    if [[ -z "$line" ]]; then
      log "unexpected answer to POST /v1/sessions: $answer"
      exit 1
    fi
    printf '%s\n' "$line" >>"$file"
  done
}

# call PORT ID TOKEN METHOD OPERATION BODY OUTPUT : one request; the body goes to OUTPUT,
# the headers to OUTPUT.headers.
call() {
  local port="$1" id="$2" token="$3" method="$4" operation="$5" body="$6" output="$7"
  local args=(-sS --fail -X "$method" -D "$output.headers" -o "$output" -H "Authorization: Bearer $token")
  [[ "$method" == POST ]] && args+=(-H "Content-Type: application/json" --data-binary "$body")
  curl "${args[@]}" "http://127.0.0.1:$port/v1/sessions/$id$operation"
}

# The documents the peer answers with: Minerva's own answers to a fresh session's GET, push
# and pop, captured now, so that they match whatever the demo app and the format are today.
mkdir -p "$results/documents"
sessions 1 "$results/probe-session.txt"
read -r probe_id probe_token <"$results/probe-session.txt"
call "$minerva_port" "$probe_id" "$probe_token" GET "" "" "$results/documents/get.json"
call "$minerva_port" "$probe_id" "$probe_token" POST /push '{"screen":"settings"}' "$results/documents/push.json"
call "$minerva_port" "$probe_id" "$probe_token" POST /pop '{}' "$results/documents/pop.json"

start peer "$peer_bin" --host 127.0.0.1 --port 0 --threads "$server_threads" --documents "$results/documents"
peer_port="$port"
peer_pid="${pids[-1]}"
log "minerva-server on port $minerva_port, hummingbird-peer on port $peer_port, $server_threads threads each"

# cpu_ticks PID : user + system CPU time the process has used, in clock ticks.
cpu_ticks() { sed 's/.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
# busy_ticks : "busy softirq elapsed" clock ticks of all cores together, from /proc/stat.
busy_ticks() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $8, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
ticks_per_second="$(getconf CLK_TCK)"

# ---- same answers? ----
# A fresh session's GET and push, asked of both servers: the bodies must be the same bytes.
sessions 1 "$results/get-session.txt"
read -r get_id get_token <"$results/get-session.txt"
sessions 1 "$results/check-session.txt"
read -r check_id check_token <"$results/check-session.txt"
for name in minerva peer; do
  port_var="${name}_port"
  call "${!port_var}" "$get_id" "$get_token" GET "" "" "$results/$name-get.body"
  call "${!port_var}" "$check_id" "$check_token" POST /push '{"screen":"settings"}' "$results/$name-push.body"
done
for what in get push; do
  if ! cmp -s "$results/minerva-$what.body" "$results/peer-$what.body"; then
    log "the two servers answer $what with different bodies:"
    diff <(cat "$results/minerva-$what.body"; echo) <(cat "$results/peer-$what.body"; echo) >&2 || true
    exit 1
  fi
done
log "identical bodies: GET $(wc -c <"$results/minerva-get.body") bytes, push $(wc -c <"$results/minerva-push.body") bytes; GET headers:"
for name in minerva peer; do
  printf '  %s: %s\n' "$name" "$(tr -d '\r' <"$results/$name-get.body.headers" | sed -n '2,$p' | grep -v '^$' | paste -sd '|' -)" >&2
done
# header_names FILE : the answer's header names, lower case, sorted, on one line.
header_names() { tr -d '\r' <"$1" | sed -n '2,$s/:.*//p' | grep -v '^$' | tr 'A-Z' 'a-z' | sort | paste -sd ' ' -; }
header_warning=""
if [[ "$(header_names "$results/minerva-get.body.headers")" != "$(header_names "$results/peer-get.body.headers")" ]]; then
  header_warning="WARNING: the servers answer GET with different header fields; update hummingbird-peer."
  log "$header_warning"
fi

# ---- wrk ----
# measure SCENARIO CONNECTIONS SERVER ROUND SCRIPT SESSIONS_FILE SECONDS : one wrk run; sets
# last_run to "scenario connections server round rps p99_us server_cpu_us_per_request
# wrk_cpu_us_per_request other_cores" and fails if other processes used more than
# MAX_OTHER_LOAD cores meanwhile. Any error, non-2xx answer or push/pop mix-up stops the script.
# The server's CPU time per request is read from /proc: it depends less than req/s on how the
# 2 cores are shared with wrk and with whatever else the machine runs.
measure() {
  local scenario="$1" connections="$2" server="$3" round="$4" script="$5" file="$6" length="$7"
  local port_var="${server}_port" pid_var="${server}_pid" out="$results/$scenario-c$connections-$server-$round.txt"
  local ticks_before ticks_after wrk_cpu machine_before machine_after TIMEFORMAT='%U %S'
  ticks_before="$(cpu_ticks "${!pid_var}")"
  machine_before="$(busy_ticks)"
  # bash's time: wrk's own user and system CPU seconds, the load generator's share of the cores.
  wrk_cpu="$( { time WRK_THREADS="$wrk_threads" SESSIONS_FILE="$file" \
    wrk -t "$wrk_threads" -c "$connections" -d "$length" --latency -s "$here/wrk/$script" \
    "http://127.0.0.1:${!port_var}" >"$out" 2>&1; } 2>&1 )" || { cat "$out" >&2; exit 1; }
  ticks_after="$(cpu_ticks "${!pid_var}")"
  machine_after="$(busy_ticks)"
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
  # Cores used by everything but this server, wrk and the kernel's softirq work for them.
  local other
  other="$(awk -v b="$machine_before" -v a="$machine_after" -v s=$((ticks_after - ticks_before)) -v w="$wrk_cpu" \
    -v hz="$ticks_per_second" -v cores="$(nproc)" 'BEGIN {
      split(b, x, " "); split(a, y, " "); split(w, t, " ")
      elapsed = (y[3] - x[3]) / cores
      other = (y[1] - x[1]) - s - (t[1] + t[2]) * hz - (y[2] - x[2])
      printf "%.2f", (other < 0 ? 0 : other) / elapsed
    }')"
  local rps p99 cpu client
  rps="$(field rps)"
  p99="$(field p99_us)"
  cpu="$(awk -v t=$((ticks_after - ticks_before)) -v hz="$ticks_per_second" -v n="$(field requests)" \
    'BEGIN { printf "%.2f", t * 1e6 / hz / n }')"
  client="$(awk -v w="$wrk_cpu" -v n="$(field requests)" 'BEGIN { split(w, t, " "); printf "%.2f", (t[1] + t[2]) * 1e6 / n }')"
  log "$(printf '%-9s c=%-3s %-7s %-6s %9s req/s  p99 %6.2f ms  CPU/req: server %5s us, wrk %5s us; others %s cores' \
    "$scenario" "$connections" "$server" "$round" "$rps" "$(awk -v u="$p99" 'BEGIN { print u / 1000 }')" "$cpu" "$client" "$other")"
  last_run="$scenario $connections $server $round $rps $p99 $cpu $client $other"
  awk -v o="$other" -v m="$max_other_load" 'BEGIN { exit !(o <= m) }'
}

# round SCENARIO CONNECTIONS SERVER ROUND SCRIPT SESSIONS_FILE [NEW_SESSIONS] : measure, again
# while other processes were busy, and keep the run in results.txt (busy or quiet).
round() {
  local attempt quiet=busy
  for attempt in $(seq 0 "$retries"); do
    [[ -n "${7:-}" ]] && sessions "$7" "$6"
    if measure "$1" "$2" "$3" "$4" "$5" "$6" "$duration"; then
      quiet=quiet
      break
    fi
    ((attempt < retries)) && log "other processes were busy; measuring again"
  done
  printf '%s %s\n' "$last_run" "$quiet" >>"$results/results.txt"
}

: >"$results/results.txt"
for connections in $health_connections; do
  for server in minerva peer; do
    measure health "$connections" "$server" warmup health.lua /dev/null "$warmup" || true
  done
  for n in $(seq "$rounds"); do
    for server in minerva peer; do
      round health "$connections" "$server" "$n" health.lua /dev/null
    done
  done
done
for connections in $get_connections; do
  for server in minerva peer; do
    measure get "$connections" "$server" warmup get_state.lua "$results/get-session.txt" "$warmup" || true
  done
  for n in $(seq "$rounds"); do
    for server in minerva peer; do
      round get "$connections" "$server" "$n" get_state.lua "$results/get-session.txt"
    done
  done
done
for connections in $push_pop_connections; do
  # Fresh sessions for every run, so that each starts from the demo app's root, however the
  # previous run ended (wrk stops with pushes in flight). The peer gets the same ids.
  for server in minerva peer; do
    sessions "$connections" "$results/push-pop-sessions.txt"
    measure push-pop "$connections" "$server" warmup push_pop.lua "$results/push-pop-sessions.txt" "$warmup" || true
  done
  for n in $(seq "$rounds"); do
    for server in minerva peer; do
      round push-pop "$connections" "$server" "$n" push_pop.lua "$results/push-pop-sessions.txt" "$connections"
    done
  done
done

# ---- table ----
# median of the values on standard input
median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
pick() { # scenario connections server column
  awk -v s="$1" -v c="$2" -v n="$3" -v col="$4" '$1 == s && $2 == c && $3 == n { print $col }' "$results/results.txt"
}
quiet() { # scenario connections server column: the quiet rounds' values, or all if none was quiet
  awk -v s="$1" -v c="$2" -v n="$3" -v col="$4" '
    $1 == s && $2 == c && $3 == n { all[++a] = $col; if ($10 == "quiet") q[++b] = $col }
    END { if (b) for (i = 1; i <= b; i++) print q[i]; else for (i = 1; i <= a; i++) print all[i] }' "$results/results.txt"
}
rounds_of() { # scenario connections server column divisor decimals
  pick "$1" "$2" "$3" "$4" | awk -v d="$5" -v p="$6" '{ printf "%s%.*f", (NR > 1 ? ", " : ""), p, $1 / d }'
}
busy_rounds() { # scenario connections server
  awk -v s="$1" -v c="$2" -v n="$3" '$1 == s && $2 == c && $3 == n && $10 == "busy" { printf " %s", $4 }' "$results/results.txt"
}

{
  printf '| Scenario | Conn. | minerva req/s | peer req/s | req/s minerva/peer | minerva p99 | peer p99 | p99 minerva/peer | minerva CPU/req | peer CPU/req | CPU/req peer/minerva |\n'
  printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n'
  while read -r scenario connections; do
    m_rps="$(quiet "$scenario" "$connections" minerva 5 | median)"
    p_rps="$(quiet "$scenario" "$connections" peer 5 | median)"
    m_p99="$(quiet "$scenario" "$connections" minerva 6 | median)"
    p_p99="$(quiet "$scenario" "$connections" peer 6 | median)"
    m_cpu="$(quiet "$scenario" "$connections" minerva 7 | median)"
    p_cpu="$(quiet "$scenario" "$connections" peer 7 | median)"
    case "$scenario" in
      health) label="GET /healthz (HTTP layer only)" ;;
      get) label="GET /v1/sessions/{id}" ;;
      *) label="POST push + pop" ;;
    esac
    awk -v l="$label" -v c="$connections" -v mr="$m_rps" -v pr="$p_rps" -v ml="$m_p99" -v pl="$p_p99" \
      -v mc="$m_cpu" -v pc="$p_cpu" 'BEGIN {
      printf "| %s | %d | %.0f | %.0f | **%.2f** | %.2f ms | %.2f ms | %.2f | %.1f µs | %.1f µs | %.2f |\n",
        l, c, mr, pr, mr / pr, ml / 1000, pl / 1000, ml / pl, mc, pc, pc / mc
    }'
  done < <(awk '{ print $1, $2 }' "$results/results.txt" | uniq)
  printf '\nMedians of %s rounds (the quiet ones, where there are) of %s each (wrk -t%s, --latency; servers with %s threads each; CPU/req is the\n' \
    "$rounds" "$duration" "$wrk_threads" "$server_threads"
  printf "server process's user + system CPU time during the run over its requests; kernel softirq time is in neither\n"
  printf 'column). minerva-server: %s, run with %s; %s, %s cores. Every round:\n\n' \
    "$minerva_label" "${minerva_args[*]}" "$(date -u +%Y-%m-%d)" "$(nproc)"
  [[ -z "$header_warning" ]] || printf '%s\n\n' "$header_warning"
  while read -r scenario connections; do
    for server in minerva peer; do
      busy="$(busy_rounds "$scenario" "$connections" "$server")"
      printf -- '- %s c=%s %s: req/s %s; p99 ms %s; server CPU µs/req %s; wrk CPU µs/req %s; other processes, cores %s%s\n' \
        "$scenario" "$connections" "$server" \
        "$(rounds_of "$scenario" "$connections" "$server" 5 1 0)" "$(rounds_of "$scenario" "$connections" "$server" 6 1000 2)" \
        "$(rounds_of "$scenario" "$connections" "$server" 7 1 1)" "$(rounds_of "$scenario" "$connections" "$server" 8 1 1)" \
        "$(rounds_of "$scenario" "$connections" "$server" 9 1 2)" "${busy:+ (busy machine in round$busy)}"
    done
  done < <(awk '{ print $1, $2 }' "$results/results.txt" | uniq)
} | tee "$results/table.md"
log "raw results in $results"
