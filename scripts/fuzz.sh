#!/usr/bin/env bash
# Fuzzes the targets of fuzz/ for a bounded time each, with cargo fuzz (libFuzzer) on the
# nightly toolchain:
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      default: 20 s for every target
#
# Each target starts from its seeds (fuzz/corpus/<target>, read only) and keeps what it finds
# in target/fuzz-corpus/<target>. A failing input is left in fuzz/artifacts/<target>/ and stops
# the run: copy it into fuzz/regressions/<target>/ (the suite replays it from then on, through
# src/fuzzing.rs) and fix what it shows. The end prints a table for docs/src/testing.md.
# Needs `cargo install cargo-fuzz` and `rustup toolchain install nightly`; not part of
# scripts/test.sh, which replays the seeds and regressions on the stable toolchain.
set -euo pipefail

cd "$(dirname "$0")/.."
seconds=${1:-20}
if [[ $# -gt 0 ]]; then shift; fi
if [[ ! $seconds =~ ^[0-9]+$ ]]; then
  echo "fuzz.sh: SECONDS must be a whole number, not $seconds" >&2
  exit 2
fi
targets=("$@")
if [[ ${#targets[@]} -eq 0 ]]; then
  mapfile -t targets < <(cargo +nightly fuzz list --fuzz-dir fuzz)
fi

cargo +nightly fuzz build --fuzz-dir fuzz -O
summary=()
for target in "${targets[@]}"; do
  scratch=target/fuzz-corpus/$target
  mkdir -p "$scratch"
  log=$(mktemp)
  echo "==> $target ($seconds s)" >&2
  status=0
  cargo +nightly fuzz run --fuzz-dir fuzz -O "$target" "$scratch" "fuzz/corpus/$target" -- \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  corpus=$(find "$scratch" -type f | wc -l)
  if [[ $status -eq 0 ]]; then
    result="no failure"
  else
    result="FAILED (exit $status): see fuzz/artifacts/$target/"
    tail -n 40 "$log" >&2
  fi
  summary+=("| \`$target\` | $seconds s | ${runs:-?} | $corpus | $result |")
  rm -f "$log"
  [[ $status -eq 0 ]] || break
done

printf '\n| target | time | inputs run | new corpus entries | result |\n|---|---|---|---|---|\n'
printf '%s\n' "${summary[@]}"
