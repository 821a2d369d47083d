#!/bin/sh
# Installs the torii executable from a release into a user directory; never needs root.
# `usage` below is the help (--help), printed from the script itself so that it works through
# a pipe (`curl … | sh -s -- --help`) too.
set -eu

usage() {
  cat <<'EOF'
Installs torii from a release into a user directory; never needs root.

  curl -fsSL https://raw.githubusercontent.com/torii-mcp/torii/main/install.sh | sh
  curl -fsSL …/install.sh | sh -s -- --add-to-path --dir ~/bin --version v0.2.0

  --version vX.Y.Z   that release instead of the latest
  --dir DIR          where torii goes (default ~/.local/bin)
  --add-to-path      add DIR to PATH in your shell's rc file, in a marked block (once per DIR)
  -h, --help         this help

The archive's SHA-256 is checked against the published .sha256 before anything is extracted;
without sha256sum or shasum nothing is installed. TORII_RELEASE_BASE_URL replaces the release
location (mirrors, tests); TORII_EXTRA_CA_FILE adds trusted roots (corporate proxies).
EOF
}

base=${TORII_RELEASE_BASE_URL:-https://github.com/torii-mcp/torii/releases}
base=${base%/}
case $base in
  https://*) ;;
  *) echo "torii install: TORII_RELEASE_BASE_URL must be an https:// URL, not $base" >&2; exit 1 ;;
esac
version=
dir=${HOME:?HOME is not set}/.local/bin
add_to_path=no

fail() {
  echo "torii install: $*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case $1 in
    --version) [ $# -ge 2 ] || fail "--version needs a tag such as v0.2.0"; version=$2; shift 2 ;;
    --version=*) version=${1#*=}; shift ;;
    --dir) [ $# -ge 2 ] || fail "--dir needs a directory"; dir=$2; shift 2 ;;
    --dir=*) dir=${1#*=}; shift ;;
    --add-to-path) add_to_path=yes; shift ;;
    -h | --help) usage; exit 0 ;;
    *) fail "unknown option $1 (see --help)" ;;
  esac
done

case $(uname -s)-$(uname -m) in
  Linux-x86_64 | Linux-amd64) platform=linux-x86_64 ;;
  *) fail "no release for $(uname -s) $(uname -m); build from source (cargo build --release)" ;;
esac

if command -v sha256sum >/dev/null 2>&1; then
  hash_check() { sha256sum -c "$1" >/dev/null 2>&1; }
elif command -v shasum >/dev/null 2>&1; then
  hash_check() { shasum -a 256 -c "$1" >/dev/null 2>&1; }
else
  fail "neither sha256sum nor shasum is installed: the download cannot be verified, so nothing was installed"
fi

if command -v curl >/dev/null 2>&1; then
  # HTTPS only, redirects included.
  fetch() { curl -fsSL --proto '=https' --proto-redir '=https' ${TORII_EXTRA_CA_FILE:+--cacert "$TORII_EXTRA_CA_FILE"} -o "$2" "$1"; }
  # The URL a redirect chain ends at.
  final_url() { curl -fsSL --proto '=https' --proto-redir '=https' ${TORII_EXTRA_CA_FILE:+--cacert "$TORII_EXTRA_CA_FILE"} -o /dev/null -w '%{url_effective}' "$1"; }
  # 60: the certificate is not trusted; 77: the CA file cannot be read.
  untrusted() { [ "$1" = 60 ] || [ "$1" = 77 ]; }
elif command -v wget >/dev/null 2>&1; then
  fetch() { wget -q ${TORII_EXTRA_CA_FILE:+--ca-certificate="$TORII_EXTRA_CA_FILE"} -O "$2" "$1"; }
  final_url() {
    wget -q -S -O /dev/null ${TORII_EXTRA_CA_FILE:+--ca-certificate="$TORII_EXTRA_CA_FILE"} "$1" 2>&1 \
      | sed -n 's/^ *[Ll]ocation: *//p' | tail -n 1 | tr -d '\r'
  }
  # 5: the certificate could not be verified.
  untrusted() { [ "$1" = 5 ]; }
else
  fail "neither curl nor wget is installed"
fi

# Fails saying what could not be downloaded (`$2`) and, when the downloader's exit status `$1`
# says the server's certificate was not trusted, how to trust another root.
download_failed() {
  hint=
  if untrusted "$1"; then
    hint=" (the server's certificate is not trusted here: if a proxy or a private CA signs it, set TORII_EXTRA_CA_FILE to that CA's PEM file)"
  fi
  fail "$2$hint"
}

if [ -z "$version" ]; then
  latest=$(final_url "$base/latest") || download_failed $? "cannot reach $base/latest"
  version=${latest##*/}
fi
case $version in
  v[0-9]*.[0-9]*.[0-9]*) ;;
  *) fail "not a release tag: '$version' (expected vX.Y.Z)" ;;
esac

asset=torii-$version-$platform.tar.gz
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torii-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

fetch "$base/download/$version/$asset" "$tmp/$asset" \
  || download_failed $? "cannot download $base/download/$version/$asset"
fetch "$base/download/$version/$asset.sha256" "$tmp/$asset.sha256" \
  || download_failed $? "cannot download the checksum $asset.sha256"
# The checksum file must name exactly this asset: nothing else is checked, or extracted.
expected=$(sed -n '1s/^\([0-9a-f]\{64\}\)  \*\{0,1\}\(.*\)$/\2/p' "$tmp/$asset.sha256")
[ "$expected" = "$asset" ] || fail "$asset.sha256 does not describe $asset; nothing was installed"
(cd "$tmp" && hash_check "$asset.sha256") \
  || fail "the SHA-256 of $asset does not match $asset.sha256; nothing was installed"

mkdir -p "$tmp/x"
tar -xzf "$tmp/$asset" -C "$tmp/x"
new=$tmp/x/torii-$version-$platform/torii
[ -f "$new" ] || fail "$asset holds no torii-$version-$platform/torii"

mkdir -p "$dir"
previous=
if [ -x "$dir/torii" ]; then
  previous=$("$dir/torii" --version 2>/dev/null || echo "an unknown version")
fi
# Beside the destination, then renamed over it: a running torii keeps its old file.
cp "$new" "$dir/.torii.new.$$"
chmod 0755 "$dir/.torii.new.$$"
mv -f "$dir/.torii.new.$$" "$dir/torii"
current=$("$dir/torii" --version 2>/dev/null || echo "torii $version")

if [ "$previous" = "$current" ]; then
  echo "torii: reinstalled $current in $dir"
elif [ -n "$previous" ]; then
  echo "torii: replaced $previous with $current in $dir"
else
  echo "torii: installed $current in $dir"
fi

case ":${PATH:-}:" in
  *":$dir:"*) exit 0 ;;
esac

marker="# added by the torii installer"
shell_name=$(basename "${SHELL:-sh}")
case $shell_name in
  bash) rc=$HOME/.bashrc; line="export PATH=\"$dir:\$PATH\"" ;;
  zsh) rc=$HOME/.zshrc; line="export PATH=\"$dir:\$PATH\"" ;;
  fish) rc=$HOME/.config/fish/config.fish; line="fish_add_path \"$dir\"" ;;
  *) rc=$HOME/.profile; line="export PATH=\"$dir:\$PATH\"" ;;
esac

if [ "$add_to_path" = no ]; then
  echo "$dir is not on your PATH; add it with:"
  echo "  $line"
  echo "(or run the installer again with --add-to-path)"
  exit 0
fi
# Once per directory: a block for another --dir does not add this one.
if [ -f "$rc" ] && grep -qxF "$line" "$rc"; then
  echo "$rc already adds $dir to PATH"
  exit 0
fi
mkdir -p "$(dirname "$rc")"
printf '\n%s\n%s\n' "$marker" "$line" >> "$rc"
echo "added $dir to PATH in $rc; open a new terminal to use it"
