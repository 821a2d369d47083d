#!/usr/bin/env bash
# The edit loop: format, lint and every test that needs no external tool, in the one build the
# full suite also makes (with the test hooks). Arguments go to nextest as a filter:
#
#   scripts/check.sh                 everything but the #[ignore]d external-tool tests
#   scripts/check.sh dispatch        only tests whose name contains "dispatch"
#   scripts/check.sh --run-ignored all aws_moto
#                                    the external-tool tests too (after one scripts/test.sh)
#
# scripts/test.sh stays the whole gate (the external tools, the second lint configuration, the
# benchmarks as tests, the docs); docs/src/testing.md says what each costs.
set -euo pipefail
cd "$(dirname "$0")/.."
# The tests read Torii's human messages in English whatever this machine's locale.
export TORII_LANG=en
# What scripts/test.sh installed, for the external-tool tests when they are asked for.
export PATH="$PWD/.tools/bin:$PATH"
export TORII_TEST_PYTHON=$PWD/.tools/venv/bin/python
export TORII_TEST_NODE_MODULES=$PWD/.tools/node/node_modules

cargo fmt --all -- --check
cargo clippy --workspace --all-targets --features test-hooks --quiet -- -D warnings
cargo nextest run --workspace --features test-hooks --cargo-quiet "$@"
