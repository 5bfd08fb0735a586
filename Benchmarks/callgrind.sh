# Sourced by hot-path.sh, run-deeplink.sh and run-state-document.sh: valgrind, a model-driver it
# can measure, and an earlier build's worktree to measure beside this one.

# Installs valgrind when it is missing.
ensure_valgrind() {
  command -v valgrind >/dev/null 2>&1 && return
  local sudo=""; [[ "$(id -u)" == 0 ]] || sudo=sudo
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq valgrind >/dev/null
}

# build_model_driver PACKAGE SCRATCH OUT: builds model-driver (release) of the Benchmarks package
# at PACKAGE in SCRATCH, and writes to OUT the copy callgrind measures. A build from before the
# persistence seam (no `enum Persistence`) gets STORAGE_PARAMETER: its API takes the store itself.
build_model_driver() {
  local flags=()
  grep -rqs "public enum Persistence" "$1/../Sources/MinervaSessions" || flags=(-Xswiftc -DSTORAGE_PARAMETER)
  mkdir -p "$2" "$(dirname "$3")"
  # The root package is a path dependency: SwiftPM keeps its build plan while the manifests stay
  # the same, and then misses a source file added or removed since; planning again is cheap.
  rm -f "$2/release.yaml"
  swift build -c release --package-path "$1" --scratch-path "$2" --product model-driver "${flags[@]}" >"$2/model-driver-build.log" 2>&1 \
    || { tail -30 "$2/model-driver-build.log" >&2; exit 1; }
  # valgrind 3.19 cannot read the DWARF 5 that swiftc writes: measure a copy without debug info.
  strip --strip-debug -o "$3" "$2/release/model-driver"
}

# ref_worktree ROOT REF WORKTREE: checks out REF in WORKTREE (removed again when the script
# exits) with this build's model-driver and the files it reads, so that both builds run the same
# driver source.
ref_worktree() {
  local root="$1" ref="$2" worktree="$3"
  mkdir -p "$(dirname "$worktree")"
  [[ -d "$worktree" ]] || git -C "$root" worktree add --detach "$worktree" "$ref" >/dev/null 2>&1
  # shellcheck disable=SC2064
  trap "git -C '$root' worktree remove --force '$worktree' >/dev/null 2>&1 || true" EXIT
  local file
  for file in Benchmarks/Sources/model-driver/main.swift Benchmarks/Sources/InProcessAPI/SixStepApp.swift \
              Benchmarks/Sources/InProcessAPI/AppDescription+Tabs.swift Benchmarks/Sources/InProcessAPI/InProcessAPI.swift \
              tests/live/apps/tabs.json; do
    mkdir -p "$worktree/$(dirname "$file")"
    cp "$root/$file" "$worktree/$file"
  done
}
