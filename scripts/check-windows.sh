#!/usr/bin/env bash
# Compiles and lints everything for Windows (x86_64-pc-windows-msvc) from Linux, in both
# configurations scripts/test.sh lints: what keeps the Windows build honest between runs of the
# `windows` job of .github/workflows/test.yml. Nothing is linked or run.
#
# A check needs the target's standard library (`rustup target add`, once) and no Windows
# toolchain, except for the C code that `ring` compiles in its build script: a stand-in for
# cl.exe and lib.exe writes empty objects, which a check never links.
set -euo pipefail

cd "$(dirname "$0")/.."
TARGET=x86_64-pc-windows-msvc
rustup target list --installed | grep -qx "$TARGET" || rustup target add "$TARGET"

stand_in=$(mktemp -d)
trap 'rm -rf "$stand_in"' EXIT
cat >"$stand_in/cl" <<'SH'
#!/bin/sh
for a in "$@"; do case "$a" in -Fo*) : >"${a#-Fo}" ;; /Fo*) : >"${a#/Fo}" ;; esac; done
SH
cat >"$stand_in/lib" <<'SH'
#!/bin/sh
for a in "$@"; do case "$a" in -out:* | /OUT:* | /out:*) : >"${a#*:}" ;; esac; done
SH
chmod +x "$stand_in/cl" "$stand_in/lib"
export CC_x86_64_pc_windows_msvc=$stand_in/cl AR_x86_64_pc_windows_msvc=$stand_in/lib
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}/windows-check

cargo clippy --target "$TARGET" --workspace --all-targets --features test-hooks -- -D warnings
cargo clippy --target "$TARGET" --workspace --all-targets --no-default-features -- -D warnings
echo "Windows ($TARGET): compiled and linted" >&2
