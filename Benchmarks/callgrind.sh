# Sourced by hot-path.sh and run-deeplink.sh: valgrind, and a model-driver it can measure.

# Installs valgrind when it is missing.
ensure_valgrind() {
  command -v valgrind >/dev/null 2>&1 && return
  local sudo=""; [[ "$(id -u)" == 0 ]] || sudo=sudo
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq valgrind >/dev/null
}

# build_model_driver PACKAGE SCRATCH OUT: builds model-driver (release) of the Benchmarks package
# at PACKAGE in SCRATCH, and writes to OUT the copy callgrind measures.
build_model_driver() {
  mkdir -p "$2" "$(dirname "$3")"
  swift build -c release --package-path "$1" --scratch-path "$2" --product model-driver >"$2/model-driver-build.log" 2>&1 \
    || { tail -30 "$2/model-driver-build.log" >&2; exit 1; }
  # valgrind 3.19 cannot read the DWARF 5 that swiftc writes: measure a copy without debug info.
  strip --strip-debug -o "$3" "$2/release/model-driver"
}
