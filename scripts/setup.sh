#!/usr/bin/env bash
# Installs what building, running and testing Minerva Server need on a Debian machine
# (curl and jq are for the README walkthrough; libpq-dev because the binary links libpq, the
# PostgreSQL client, for --store postgres://).
# Idempotent: packages already present are not installed again.
#   scripts/setup.sh                  what the server needs to build and run
#   scripts/setup.sh --test           also the test tools (Debian's, and a Python venv in .venv
#                                     with pytest, schemathesis, hadolint …)
#   scripts/setup.sh --test-packages  the first half of --test: Debian's packages
#   scripts/setup.sh --test-venv      its second half: the Python venv (scripts/test.sh runs it
#                                     beside the first build)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=false venv=false test_packages=false
case "${1:-}" in
  "") packages=true ;;
  --test) packages=true test_packages=true venv=true ;;
  --test-packages) packages=true test_packages=true ;;
  --test-venv) venv=true ;;
  *) echo "usage: scripts/setup.sh [--test | --test-packages | --test-venv]" >&2; exit 2 ;;
esac

# Swift is the one thing this script does not install: say so, and where to get it.
swift_version=$( (swift --version 2>/dev/null || true) | sed -n 's/.*Swift version \([0-9]*\.[0-9]*\).*/\1/p' | head -n 1)
if [[ -z "$swift_version" ]] || ! printf '6.3\n%s\n' "$swift_version" | sort -C -V; then
  echo "setup: Minerva Server needs Swift 6.3 or later (found: ${swift_version:-none})." >&2
  echo "setup: install it from https://www.swift.org/install/linux/ (swiftly, or the Debian tarball), then run this again." >&2
  exit 1
fi

needed=(libmicrohttpd-dev libsqlite3-dev libpq-dev pkg-config curl jq)
if $test_packages; then
  # chromium and its driver run the web client's browser test; postgresql gives initdb and
  # pg_ctl for the private clusters the tests start; nginx is the load balancer of the
  # several-instances tests (both run unprivileged from temporary folders, no service); a JRE
  # runs OpenAPI Generator (its jar comes from PyPI) on openapi.yaml; debootstrap builds the
  # Dockerfile's runtime stage as a chroot (tests/live/test_image_runtime.py)
  needed+=(python3-venv chromium chromium-driver fonts-inter postgresql nginx default-jre-headless debootstrap)
fi
$packages || needed=()

missing=()
for package in "${needed[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if ((${#missing[@]})); then
  sudo=""
  [[ "$(id -u)" == 0 ]] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  if [[ " ${missing[*]} " == *" postgresql "* ]]; then
    # Debian's package would otherwise create and start a cluster of its own on port 5432;
    # the tests start private clusters and want none running.
    $sudo mkdir -p /etc/postgresql-common
    echo "create_main_cluster = false" | $sudo tee -a /etc/postgresql-common/createcluster.conf >/dev/null
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if $venv; then
  if [[ ! -x .venv/bin/python ]]; then
    python3 -m venv .venv
  fi
  if ! .venv/bin/python -c 'import schemathesis, openapi_spec_validator, pytest, xdist, yaml, selenium, prometheus_client, check_jsonschema, openapi_python_client' 2>/dev/null \
      || [[ ! -x .venv/bin/hadolint || ! -x .venv/bin/openapi-generator-cli || ! -x .venv/bin/ruff ]]; then
    echo "setup: installing Python test tools into .venv"
    .venv/bin/pip install --quiet --disable-pip-version-check -r tests/requirements.txt
  fi
fi
