#!/usr/bin/env bash
# Builds the Linux release archive exactly as the release workflow publishes it:
#   <out>/torii-<tag>-linux-x86_64.tar.gz         holding torii-<tag>-linux-x86_64/torii
#   <out>/torii-<tag>-linux-x86_64.tar.gz.sha256  in `sha256sum` format
#
#   scripts/package-release.sh [--tag vX.Y.Z] [--out DIR] [--binary PATH]
#
# Without --binary it builds `cargo build --profile dist` (fat LTO, one codegen unit: what the
# releases ship; `--release` is the quicker build for everyone else); without --tag it uses the
# crate's version. Tests pass a binary they already have.
set -euo pipefail

cd "$(dirname "$0")/.."
tag="v$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)"
out=dist
binary=
while [[ $# -gt 0 ]]; do
  case $1 in
    --tag) tag=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    *) echo "package-release.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
if [[ ! $tag =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  echo "package-release.sh: the tag must look like v1.2.3, not $tag" >&2
  exit 2
fi
if [[ -z $binary ]]; then
  # What `torii doctor` reports as the build's provenance (src/release.rs).
  TORII_RELEASE_TAG=$tag cargo build --profile dist --locked
  binary=${CARGO_TARGET_DIR:-target}/dist/torii
fi

name="torii-$tag-linux-x86_64"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name" "$out"
install -m 0755 "$binary" "$stage/$name/torii"
cp README.md "$stage/$name/"
# Same bytes for the same binary: fixed owner, order and times.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='@0' \
  -C "$stage" -cf - "$name" | gzip -n -9 > "$out/$name.tar.gz"
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
echo "$out/$name.tar.gz"
