#!/usr/bin/env bash
# Model benchmarks (MODEL.md): list diff, navigation model, GET state in process, memory, and how
# the cost of the state document and of a list diff grows with their size.
#
#   Benchmarks/run-model.sh            # everything: about 15-20 minutes after the first build
#   PHASES="suites" Benchmarks/run-model.sh
#   PHASES="growth" Benchmarks/run-model.sh     # the growth curves alone: about 3-4 minutes after the build
#
# Phases (PHASES, default all of "suites callgrind memory growth"):
#   suites     package-benchmark: the ListDiff and Model suites (wall clock, mallocs, moves)
#   callgrind  instructions per diff and per model operation, with valgrind's callgrind on
#              diff-driver and model-driver (this machine kind has no hardware counters, so
#              package-benchmark's .instructions metric stays empty)
#   memory     memory-footprint: resident memory per session (N = 10,000 and 100,000, one process
#              each) and per node (one session of 1,002 nodes)
#   growth     growth-driver: wall clock of GET state (StateDocument encoding, through the public
#              API) at GROWTH_NODES nodes (default 3,10,100,1000) and of a list diff, validate+diff
#              and diff+JSON at GROWTH_CELLS cells (default 10,100,1000,10000,100000), per operation
#              and per node or cell; then, unless GROWTH_CALLGRIND=0, their instructions with callgrind
# The machine is shared. Before each suite run the script waits (up to QUIET_WAIT seconds, default
# 600) until other processes use at most MAX_OTHER_LOAD cores (default 0.3). A suite during which
# they used more is run again, up to RETRIES times (default 2), and the quietest run is kept.
# callgrind counts instructions and memory-footprint resident bytes, which other load doesn't
# change, so those run once.
#
# Everything builds in Benchmarks/.build/model (its own scratch path, so that it never waits for or
# blocks a build in Benchmarks/.build). Raw output and summary.md go to
# Benchmarks/.build/model/results/<time>/.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
scratch="$here/.build/model"
phases="${PHASES:-suites callgrind memory growth}"
max_other_load="${MAX_OTHER_LOAD:-0.3}"
retries="${RETRIES:-2}"
results="$scratch/results/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$results"

log() { printf 'run-model: %s\n' "$*" >&2; }
has_phase() { [[ " $phases " == *" $1 "* ]]; }

# ---- tools ----
growth_nodes="${GROWTH_NODES:-3,10,100,1000}"
growth_cells="${GROWTH_CELLS:-10,100,1000,10000,100000}"
growth_callgrind="${GROWTH_CALLGRIND:-1}"
if { has_phase callgrind || { has_phase growth && [[ "$growth_callgrind" == 1 ]]; }; } && ! command -v valgrind >/dev/null 2>&1; then
  log "installing valgrind"
  sudo=""; [[ "$(id -u)" == 0 ]] || sudo=sudo
  $sudo apt-get update -qq && $sudo apt-get install -y -qq valgrind >/dev/null
fi

# ---- what is measured: the main package's commit and whether its sources differ from it ----
{
  echo "main package at $(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo unknown)"
  changed=$(git -C "$here/.." status --porcelain -- Sources Package.swift 2>/dev/null | wc -l)
  echo "uncommitted changes under Sources/ and Package.swift: $changed files"
} >"$results/source.txt"

# ---- build ----
log "building diff-driver, model-driver, memory-footprint and growth-driver (release) in $scratch"
for product in diff-driver model-driver memory-footprint growth-driver; do
  if ! swift build -c release --package-path "$here" --scratch-path "$scratch" --product "$product" \
    >"$results/build-$product.log" 2>&1; then
    grep -E "error" "$results/build-$product.log" >&2 || tail -20 "$results/build-$product.log" >&2
    log "build of $product failed (log: $results/build-$product.log)"
    exit 1
  fi
done

# ---- other load: cores that processes other than the command used while it ran ----
# run_measured OUT COMMAND…: writes the command's output to OUT (and OUT.stderr) and prints the
# cores that other processes used meanwhile.
busy_jiffies() { awk '/^cpu / {print $2+$3+$4+$7+$8}' /proc/stat; }
run_measured() {
  local out="$1"; shift
  local me=$BASHPID  # this (sub)shell; not $$, and not read inside a nested $(…), which is another process
  local start_busy start_time own_start own_end end_busy end_time
  own_start=$(awk '{print $14+$15+$16+$17}' "/proc/$me/stat")
  start_busy=$(busy_jiffies); start_time=$(date +%s.%N)
  "$@" >"$out" 2>"$out.stderr"
  end_busy=$(busy_jiffies); end_time=$(date +%s.%N)
  own_end=$(awk '{print $14+$15+$16+$17}' "/proc/$me/stat")
  local hz; hz=$(getconf CLK_TCK)
  # busy time of all CPUs minus this (sub)shell's own and its children's (cutime+cstime grow as they end)
  awk -v b0="$start_busy" -v b1="$end_busy" -v o0="$own_start" -v o1="$own_end" -v t0="$start_time" -v t1="$end_time" -v hz="$hz" \
    'BEGIN { other = ((b1 - b0) - (o1 - o0)) / hz / (t1 - t0); if (other < 0) other = 0; printf "%.2f\n", other }'
}

# Waits (up to QUIET_WAIT seconds, default 600) until other processes use at most MAX_OTHER_LOAD
# cores over a 5-second window; nothing of this script runs meanwhile.
wait_quiet() {
  local deadline=$(( $(date +%s) + ${QUIET_WAIT:-600} ))
  while :; do
    local b0 b1 t0 t1; b0=$(busy_jiffies); t0=$(date +%s.%N); sleep 5; b1=$(busy_jiffies); t1=$(date +%s.%N)
    local load; load=$(awk -v a="$b0" -v b="$b1" -v t0="$t0" -v t1="$t1" -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.2f", (b - a) / hz / (t1 - t0) }')
    if awk -v a="$load" -v m="$max_other_load" 'BEGIN { exit !(a <= m) }'; then return 0; fi
    if (( $(date +%s) >= deadline )); then log "the machine stayed busy ($load cores in use by others); measuring anyway"; return 0; fi
    log "waiting for a quiet machine: others use $load cores"
    sleep 10
  done
}

# Runs a phase until it gets a quiet machine (or RETRIES more times), keeping the quietest output.
run_phase() {
  local name="$1"; shift
  local best="" best_load=""
  for attempt in $(seq 0 "$retries"); do
    wait_quiet
    local out="$results/$name.$attempt.txt"
    local load; load=$(run_measured "$out" "$@")
    log "$name (attempt $attempt): other processes used $load cores"
    echo "$load" >"$out.load"
    if [[ -z "$best" ]] || awk -v a="$load" -v b="$best_load" 'BEGIN { exit !(a < b) }'; then best="$out"; best_load="$load"; fi
    awk -v a="$load" -v m="$max_other_load" 'BEGIN { exit !(a <= m) }' && break
  done
  cp "$best" "$results/$name.txt"; cp "$best.stderr" "$results/$name.txt.stderr"; echo "$best_load" >"$results/$name.load"
}

# ---- suites ----
if has_phase suites; then
  log "package-benchmark: building the suites (the first build of package-benchmark takes a few minutes)"
  swift package --package-path "$here" --scratch-path "$scratch" benchmark list >"$results/list.txt" 2>"$results/list.stderr" \
    || { cat "$results/list.stderr" >&2; exit 1; }
  for suite in ListDiff Model; do
    log "package-benchmark: running $suite"
    run_phase "suite-$suite" swift package --package-path "$here" --scratch-path "$scratch" benchmark \
      --target "$suite" --no-progress --format markdown
  done
fi

# ---- callgrind ----
# Instructions of one call = (total with k iterations - total with 0) / k. Deterministic hashing
# makes the totals repeatable (Hasher's seed otherwise changes collisions from run to run).
callgrind_total() {
  SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
    | awk '/Collected :/ {print $4}'
}
if has_phase callgrind; then
  # valgrind 3.19 cannot read the DWARF 5 that swiftc writes: run copies without debug info.
  mkdir -p "$scratch/callgrind"
  for driver in diff-driver model-driver; do
    strip --strip-debug -o "$scratch/callgrind/$driver" "$scratch/release/$driver"
  done
  out="$results/callgrind.txt"
  : >"$out"
  for variant in single sectioned; do
    for n in 1000 10000 100000; do
      log "callgrind: diffs of $n cells, $variant"
      base=$(callgrind_total "$scratch/callgrind/diff-driver" "$n" "$variant" inputs 0)
      for impl in minerva minerva-validate minerva-json stdlib; do
        case "$impl:$n" in
          stdlib:100000) continue ;;
          stdlib:10000) k=1 ;;
          stdlib:*) k=3 ;;
          *:100000) k=2 ;;
          *:10000) k=5 ;;
          *) k=20 ;;
        esac
        total=$(callgrind_total "$scratch/callgrind/diff-driver" "$n" "$variant" "$impl" "$k")
        counts=$("$scratch/release/diff-driver" "$n" "$variant" "$impl" 1)
        echo "diff n=$n variant=$variant impl=$impl k=$k base=$base total=$total ir=$(( (total - base) / k )) $counts" >>"$out"
      done
    done
  done
  # The same diffs when unchanged cells share their content's storage with the old list (content
  # comparison is then a pointer check; the server's PUT parses new content, so it never is).
  for n in 10000 100000; do
    log "callgrind: diffs of $n cells, single, shared content"
    base=$(DIFF_SHARED_CONTENT=1 callgrind_total "$scratch/callgrind/diff-driver" "$n" single inputs 0)
    k=$(( n == 100000 ? 2 : 5 ))
    total=$(DIFF_SHARED_CONTENT=1 callgrind_total "$scratch/callgrind/diff-driver" "$n" single minerva "$k")
    counts=$(DIFF_SHARED_CONTENT=1 "$scratch/release/diff-driver" "$n" single minerva 1)
    echo "diff n=$n variant=single-shared impl=minerva k=$k base=$base total=$total ir=$(( (total - base) / k )) ${counts//variant=single/variant=single-shared}" >>"$out"
  done
  for op in push-pop present-dismiss deeplink2 deeplink5 deeplink5-fresh get-fresh get-loaded; do
    log "callgrind: model operation $op"
    base=$(callgrind_total "$scratch/callgrind/model-driver" "$op" 0)
    total=$(callgrind_total "$scratch/callgrind/model-driver" "$op" 1000)
    echo "model op=$op k=1000 base=$base total=$total ir=$(( (total - base) / 1000 ))" >>"$out"
  done
fi

# ---- memory ----
if has_phase memory; then
  footprint="$scratch/release/memory-footprint"
  # The brief's session: 4 pushes (7 nodes: the demo app starts with n0 and two tab roots) and a
  # 20-item list; then the 5-node session (2 pushes) with and without the list.
  # Resident memory doesn't depend on other load: each runs once.
  memory_run() {
    local name="$1"; shift
    log "memory: $name"
    run_measured "$results/$name.txt" "$@" >"$results/$name.load"
  }
  memory_run memory-10k "$footprint" sessions 10000 4 20
  memory_run memory-100k "$footprint" sessions 100000 4 20
  memory_run memory-10k-5nodes "$footprint" sessions 10000 2 20
  memory_run memory-10k-5nodes-nolist "$footprint" sessions 10000 2 0
  memory_run memory-10k-3nodes-nolist "$footprint" sessions 10000 0 0
  memory_run memory-nodes "$footprint" nodes 999
fi

# ---- growth ----
if has_phase growth; then
  log "growth: wall clock of GET state at $growth_nodes nodes and of list diffs at $growth_cells cells"
  run_phase growth "$scratch/release/growth-driver" times "$growth_nodes" "$growth_cells"
  if [[ "$growth_callgrind" == 1 ]]; then
    mkdir -p "$scratch/callgrind"
    strip --strip-debug -o "$scratch/callgrind/growth-driver" "$scratch/release/growth-driver"
    out="$results/growth-callgrind.txt"
    : >"$out"
    # k operations per count: enough to dwarf the noise of set-up, few enough for valgrind's pace.
    for n in ${growth_nodes//,/ }; do
      log "callgrind: GET state, $n nodes"
      k=$(( n >= 1000 ? 20 : 200 ))
      base=$(callgrind_total "$scratch/callgrind/growth-driver" state "$n" 0)
      total=$(callgrind_total "$scratch/callgrind/growth-driver" state "$n" "$k")
      echo "growth what=state size=$n k=$k base=$base total=$total ir=$(( (total - base) / k ))" >>"$out"
    done
    for n in ${growth_cells//,/ }; do
      k=$(( n >= 100000 ? 1 : n >= 10000 ? 3 : n >= 1000 ? 20 : 200 ))
      log "callgrind: list diffs, $n cells"
      base=$(callgrind_total "$scratch/callgrind/growth-driver" diff "$n" 0)
      for what in diff validate+diff diff+json; do
        total=$(callgrind_total "$scratch/callgrind/growth-driver" "$what" "$n" "$k")
        echo "growth what=$what size=$n k=$k base=$base total=$total ir=$(( (total - base) / k ))" >>"$out"
      done
    done
  fi
fi

# ---- summary ----
python3 - "$results" >"$results/summary.md" <<'PYTHON'
import os, re, sys

results = sys.argv[1]

def read(name):
    path = os.path.join(results, name)
    return open(path).read() if os.path.exists(path) else None

def load(name):
    text = read(name + ".load")
    return text.strip() if text else "?"

def parse_suite(text):
    """{benchmark: {metric: {"p0": .., "p50": .., "samples": ..}}} from package-benchmark's markdown."""
    suites = {}
    name = None
    for line in text.splitlines():
        if line.startswith("### "):
            name = line[4:].strip()
            suites[name] = {}
        elif name and line.startswith("| ") and not line.startswith("| Metric"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) >= 9:
                metric = cells[0].rstrip(" *")
                try:
                    values = [float(c) for c in cells[1:9]]
                except ValueError:
                    continue
                suites[name][metric] = dict(zip(["p0", "p25", "p50", "p75", "p90", "p99", "p100", "samples"], values))
    return suites

def metric(bench, prefix):
    for key, value in bench.items():
        if key.startswith(prefix):
            unit = re.search(r"\((μs|ms|ns|s)\)", key)
            return value, unit.group(1) if unit else ""
    return None, ""

def to_ms(value, unit):
    return value * {"ns": 1e-6, "μs": 1e-3, "ms": 1.0, "s": 1e3}.get(unit, 1.0)

def fmt(x, digits=3):
    if x is None:
        return "–"
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.{digits}g}"

out = []
out.append(f"# Model benchmarks: {os.path.basename(results)}\n")
source = read("source.txt")
if source:
    out.append("Measured source: " + source.strip().replace("\n", "; ") + "\n")

listdiff = read("suite-ListDiff.txt")
if listdiff:
    suite = parse_suite(listdiff)
    out.append(f"## List diff (package-benchmark; other processes used {load('suite-ListDiff')} cores)\n")
    out.append("p50 wall clock (p0 in brackets); mallocs and moves per diff.\n")
    out.append("| cells | variant | Minerva diff ms | validate+diff ms | stdlib ms | stdlib / validate+diff | Minerva moves | stdlib moves | diff+JSON ms (3 ms target at 10k) | mallocs diff / validate+diff / diff+JSON / stdlib |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    growth = {}
    for variant in ["single", "sectioned"]:
        for n in [1, 10, 100]:
            label = f"{n}k {variant}"
            minerva = suite.get(f"Minerva diff {label}", {})
            json_ = suite.get(f"Minerva diff+JSON {label}", {})
            validate = suite.get(f"Minerva validate+diff {label}", {})
            wv, uv = metric(validate, "Time (wall clock)")
            v = to_ms(wv["p50"], uv) if wv else None
            std = suite.get(f"stdlib difference+inferringMoves {label}", {})
            wm, um = metric(minerva, "Time (wall clock)")
            wj, uj = metric(json_, "Time (wall clock)")
            ws, us = metric(std, "Time (wall clock)")
            m = to_ms(wm["p50"], um) if wm else None
            m0 = to_ms(wm["p0"], um) if wm else None
            j = to_ms(wj["p50"], uj) if wj else None
            s = to_ms(ws["p50"], us) if ws else None
            growth[(variant, n)] = m
            growth[(variant + " validate+diff", n)] = v
            moves_m = minerva.get("moves", {}).get("p50")
            moves_s = std.get("moves", {}).get("p50")
            mallocs = [b.get("Malloc (total)", {}).get("p50") for b in (minerva, validate, json_, std)]
            out.append(
                f"| {n}k | {variant} | {fmt(m)} ({fmt(m0)}) | {fmt(v)} | {fmt(s)} | {fmt(s / v) + '×' if s and v else '–'} | "
                f"{fmt(moves_m) if moves_m is not None else '–'} | {fmt(moves_s) if moves_s is not None else '–'} | "
                f"{fmt(j)}{' ✓' if n == 10 and j and j < 3 else (' ✗' if n == 10 and j else '')} | "
                f"{' / '.join(fmt(x) if x is not None else '–' for x in mallocs)} |")
    out.append("")
    for variant in ["single", "sectioned", "single validate+diff", "sectioned validate+diff"]:
        a, b = growth.get((variant, 10)), growth.get((variant, 100))
        if a and b:
            out.append(f"- wall clock 100k / 10k, {variant}: {b / a:.1f}× (target: within 12×)")
    out.append("")

model = read("suite-Model.txt")
if model:
    suite = parse_suite(model)
    targets = {"push+pop": 2.0, "deep link": 20.0}
    out.append(f"## Model operations (package-benchmark, per operation; other processes used {load('suite-Model')} cores)\n")
    out.append("| operation | p50 µs | p0 µs | p90 µs | mallocs | target |")
    out.append("|---|---|---|---|---|---|")
    for name, bench in suite.items():
        w, u = metric(bench, "Time (wall clock)")
        if not w:
            continue
        p50, p0, p90 = (to_ms(w[p], u) * 1000 for p in ("p50", "p0", "p90"))
        target = next((t for key, t in targets.items() if name.startswith(key)), None)
        verdict = "" if target is None else (f"< {target:g} µs {'✓' if p50 < target else '✗'}")
        mallocs = bench.get("Malloc (total)", {}).get("p50")
        out.append(f"| {name} | {fmt(p50)} | {fmt(p0)} | {fmt(p90)} | {fmt(mallocs) if mallocs is not None else '–'} | {verdict} |")
    out.append("")

callgrind = read("callgrind.txt")
if callgrind:
    out.append("## Instructions (callgrind, deterministic hashing)\n")
    out.append("| cells | variant | Minerva diff Ir/cell | validate+diff Ir/cell | diff+JSON Ir/cell | stdlib Ir/cell | stdlib / validate+diff | Minerva moves | stdlib moves | generated moves |")
    out.append("|---|---|---|---|---|---|---|---|---|---|")
    rows = {}
    for line in callgrind.splitlines():
        fields = dict(re.findall(r"(\w+)=(\S+)", line))
        if line.startswith("diff "):
            key = (fields["variant"], int(fields["n"]))
            rows.setdefault(key, {})[fields["impl"]] = fields
    irs = {}
    for variant in ["single", "sectioned", "single-shared"]:
        for n in [1000, 10000, 100000]:
            row = rows.get((variant, n), {})
            if not row:
                continue
            def per(impl):
                f = row.get(impl)
                return int(f["ir"]) / n if f else None
            m, v, j, s = per("minerva"), per("minerva-validate"), per("minerva-json"), per("stdlib")
            irs[(variant, n)] = m
            irs[(variant + " validate+diff", n)] = v
            moves = lambda impl: row.get(impl, {}).get("moves", "–")
            generated = row.get("minerva", {}).get("moved", "–")
            out.append(f"| {n // 1000}k | {variant} | {fmt(m)} | {fmt(v)} | {fmt(j)} | {fmt(s)} | {fmt(s / v) + '×' if s and v else '–'} | "
                       f"{moves('minerva')} | {moves('stdlib')} | {generated} |")
    out.append("")
    for variant in ["single", "sectioned", "single validate+diff", "sectioned validate+diff"]:
        a, b = irs.get((variant, 10000)), irs.get((variant, 100000))
        if a and b:
            out.append(f"- instructions 100k / 10k, {variant}: {b * 100000 / (a * 10000):.1f}× (per cell {b / a:.2f}×)")
    out.append("")
    out.append("| model operation | instructions |")
    out.append("|---|---|")
    for line in callgrind.splitlines():
        if line.startswith("model "):
            fields = dict(re.findall(r"(\w+)=(\S+)", line))
            out.append(f"| {fields['op']} | {int(fields['ir']):,} |")
    out.append("")

growth = read("growth.txt")
if growth:
    calls = {}
    for line in (read("growth-callgrind.txt") or "").splitlines():
        f = dict(re.findall(r"(\S+?)=(\S+)", line))
        calls[(f["what"], int(f["size"]))] = int(f["ir"])
    rows = {}
    for line in growth.splitlines():
        if line.startswith("growth "):
            f = dict(re.findall(r"(\S+?)=(\S+)", line))
            rows.setdefault(f["what"], []).append(f)
    def us(ns):
        return fmt(float(ns) / 1000)
    def ns(x):
        return fmt(x)
    out.append(f"## Growth (growth-driver; other processes used {load('growth')} cores)\n")
    out.append("Wall clock per operation: median of 15 batches of at least 20 ms (minimum in brackets). "
               "Instructions from callgrind where measured. \"Per node\" and \"per cell\" divide by the size; "
               "\"extra per node\" is (GET at N − GET at 3 nodes) / (N − 3), the encoding's share.\n")
    state = rows.get("state", [])
    if state:
        base = state[0]
        base_ir = calls.get(("state", int(base["size"])))
        out.append("### GET state (StateDocument encoding) against tree size\n")
        out.append("| nodes | document bytes | µs per GET | ns per node | extra ns per node | instructions per GET | instructions per node | extra instructions per node |")
        out.append("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for f in state:
            n = int(f["size"])
            p50 = float(f["p50_ns"])
            extra = (p50 - float(base["p50_ns"])) / (n - int(base["size"])) if n != int(base["size"]) else None
            ir = calls.get(("state", n))
            extra_ir = (ir - base_ir) / (n - int(base["size"])) if ir and base_ir and n != int(base["size"]) else None
            out.append(f"| {n:,} | {int(f['bytes']):,} | {us(p50)} ({us(f['min_ns'])}) | {ns(p50 / n)} | {ns(extra)} | "
                       f"{f'{ir:,}' if ir else '–'} | {fmt(ir / n) if ir else '–'} | {fmt(extra_ir)} |")
        out.append("")
    if any(w in rows for w in ("diff", "validate+diff", "diff+json")):
        out.append("### List diff against list size (one section; 10% deleted, inserted, moved and updated)\n")
        out.append("| cells | diff µs | ns per cell | validate+diff µs | ns per cell | diff+JSON µs | ns per cell | JSON bytes | diff Ir per cell | validate+diff Ir per cell | diff+JSON Ir per cell |")
        out.append("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        by_size = {}
        for what in ("diff", "validate+diff", "diff+json"):
            for f in rows.get(what, []):
                by_size.setdefault(int(f["size"]), {})[what] = f
        for n in sorted(by_size):
            cells = [f"{n:,}"]
            for what in ("diff", "validate+diff", "diff+json"):
                f = by_size[n].get(what)
                cells += [f"{us(f['p50_ns'])} ({us(f['min_ns'])})", ns(float(f["p50_ns"]) / n)] if f else ["–", "–"]
            f = by_size[n].get("diff+json")
            cells.append(f"{int(f['bytes']):,}" if f else "–")
            for what in ("diff", "validate+diff", "diff+json"):
                ir = calls.get((what, n))
                cells.append(fmt(ir / n) if ir else "–")
            out.append("| " + " | ".join(cells) + " |")
        out.append("")

memory_rows = []
for name in ["memory-10k", "memory-100k", "memory-10k-5nodes", "memory-10k-5nodes-nolist", "memory-10k-3nodes-nolist", "memory-nodes"]:
    text = read(name + ".txt")
    if not text:
        continue
    fields = dict(re.findall(r"(\w+)=(\S+)", text))
    rss = re.search(r"rss_per_(?:session|node): (\d+) B", text)
    heap = re.search(r"heap_per_(?:session|node): (\d+) B", text)
    memory_rows.append((name, fields, int(rss.group(1)) if rss else None, int(heap.group(1)) if heap else None, load(name)))
if memory_rows:
    out.append("## Memory (memory-footprint)\n")
    out.append("| run | sessions | nodes per session | list items | RSS per session or node | heap per session or node | target | other load |")
    out.append("|---|---|---|---|---|---|---|---|")
    for name, fields, rss, heap, other in memory_rows:
        if fields.get("mode") == "nodes":
            out.append(f"| {name} | 1 | {fields.get('nodes')} | 0 | {rss} B per node | {heap} B per node | | {other} |")
        else:
            nodes = fields.get("nodes_per_session")
            target = f"< 4096 B {'✓' if rss is not None and rss < 4096 else '✗'}" if nodes in ("5", "7") else ""
            out.append(f"| {name} | {fields.get('sessions')} | {nodes} | {fields.get('list_items')} | {rss} B ({rss / 1024:.2f} KiB) | "
                       f"{heap} B | {target} | {other} |")
    out.append("")

print("\n".join(out))
PYTHON
cat "$results/summary.md"
log "raw output and summary.md: $results"
