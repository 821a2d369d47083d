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
  --no-signature-check
                     install with the checksum alone, when the release's signature cannot be
                     checked here (no minisign, no OpenSSL 3) or the release is not signed
  -h, --help         this help

The published .sha256 must be signed by a torii release key (its .sha256.minisig, checked with
minisign or OpenSSL 3), and the archive's SHA-256 must match it, before anything is extracted;
without sha256sum or shasum nothing is installed. TORII_RELEASE_BASE_URL replaces the release
location (mirrors, tests) and TORII_RELEASE_PUBLIC_KEY the release key (a mirror that signs
with its own); TORII_EXTRA_CA_FILE adds trusted roots (corporate proxies).
EOF
}

# The public keys (minisign's format) of torii's releases, as in src/release.rs: the current
# key and the next one. Empty until the project's key is made (docs/src/installation.md).
release_keys=""

base=${TORII_RELEASE_BASE_URL:-https://github.com/torii-mcp/torii/releases}
base=${base%/}
case $base in
  https://*) ;;
  *) echo "torii install: TORII_RELEASE_BASE_URL must be an https:// URL, not $base" >&2; exit 1 ;;
esac
version=
dir=${HOME:?HOME is not set}/.local/bin
add_to_path=no
check_signature=yes

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
    --no-signature-check) check_signature=no; shift ;;
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

# Whether the minisign signature `$2` of the file `$1` is by one of the release keys. With
# minisign when it is installed, else with OpenSSL 3: minisign signs the file's BLAKE2b-512
# with Ed25519 ("ED"), then the signature and its trusted comment (the global signature).
signed_by_a_release_key() {
  keys=${TORII_RELEASE_PUBLIC_KEY:-$release_keys}
  [ -n "$keys" ] || fail "this installer trusts no release key yet: nothing was installed (--no-signature-check installs on the checksum alone)"
  if command -v minisign >/dev/null 2>&1; then
    for key in $keys; do
      minisign -Vq -m "$1" -x "$2" -P "$key" >/dev/null 2>&1 && return 0
    done
    return 1
  fi
  case $(openssl version 2>/dev/null) in
    "OpenSSL 3."*) ;;
    *) fail "neither minisign nor OpenSSL 3 is installed: the release's signature cannot be checked, so nothing was installed (--no-signature-check installs on the checksum alone)" ;;
  esac
  s=$tmp/signature
  mkdir -p "$s"
  sed -n 2p "$2" | base64 -d > "$s/line" 2>/dev/null || return 1
  sed -n 4p "$2" | base64 -d > "$s/global" 2>/dev/null || return 1
  comment=$(sed -n '3s/^trusted comment: //p' "$2")
  [ "$(wc -c < "$s/line")" -eq 74 ] && [ "$(head -c 2 "$s/line")" = ED ] || return 1
  [ "$(wc -c < "$s/global")" -eq 64 ] || return 1
  tail -c 64 "$s/line" > "$s/signature"
  openssl dgst -blake2b512 -binary "$1" > "$s/hash" || return 1
  { cat "$s/signature"; printf '%s' "$comment"; } > "$s/signed-comment"
  for key in $keys; do
    printf '%s' "$key" | base64 -d > "$s/key" 2>/dev/null || continue
    [ "$(wc -c < "$s/key")" -eq 42 ] && [ "$(head -c 2 "$s/key")" = Ed ] || continue
    # The key id, bytes 3 to 10 of both, names the key that signed.
    [ "$(head -c 10 "$s/line" | tail -c 8 | od -An -tx1)" = "$(head -c 10 "$s/key" | tail -c 8 | od -An -tx1)" ] || continue
    # An Ed25519 public key as OpenSSL reads it: the SubjectPublicKeyInfo prefix, the 32 bytes.
    { printf '\060\052\060\005\006\003\053\145\160\003\041\000'; tail -c 32 "$s/key"; } > "$s/key.der"
    openssl pkeyutl -verify -pubin -keyform DER -inkey "$s/key.der" -rawin \
      -in "$s/hash" -sigfile "$s/signature" >/dev/null 2>&1 \
      && openssl pkeyutl -verify -pubin -keyform DER -inkey "$s/key.der" -rawin \
        -in "$s/signed-comment" -sigfile "$s/global" >/dev/null 2>&1 \
      && return 0
  done
  return 1
}

# Fails saying what could not be downloaded (`$2`) and, when the downloader's exit status `$1`
# says the server's certificate was not trusted, how to trust another root.
download_failed() {
  hint=
  if untrusted "$1"; then
    hint=" (the server's certificate is not trusted here: if a proxy or a private CA signs it, set TORII_EXTRA_CA_FILE to that CA's PEM file)"
  fi
  fail "$2$hint"
}

chosen=$version
if [ -z "$version" ]; then
  latest=$(final_url "$base/latest") || download_failed $? "cannot reach $base/latest"
  version=${latest##*/}
fi
# "X Y Z" from vX.Y.Z or `torii X.Y.Z`; nothing for anything else.
version_numbers() {
  printf '%s\n' "$1" | sed -n 's/^\(torii \)\{0,1\}v\{0,1\}\([0-9]\{1,9\}\)\.\([0-9]\{1,9\}\)\.\([0-9]\{1,9\}\)$/\2 \3 \4/p'
}
case $version in
  v*) [ -n "$(version_numbers "$version")" ] || fail "not a release tag: '$version' (expected vX.Y.Z)" ;;
  *) fail "not a release tag: '$version' (expected vX.Y.Z)" ;;
esac
# Whether the version numbers "$1" come before "$2".
older_than() {
  # shellcheck disable=SC2086 # split on purpose: three numbers each
  set -- $1 $2
  [ "$1" -lt "$4" ] || { [ "$1" -eq "$4" ] && { [ "$2" -lt "$5" ] || { [ "$2" -eq "$5" ] && [ "$3" -lt "$6" ]; }; }; }
}
# A signature proves a release is torii's, not that it is the newest: whoever answers for
# <base>/latest could point it at an older, signed release. Going back takes --version.
if [ -z "$chosen" ] && [ -x "$dir/torii" ]; then
  # Its stdin is not the piped script: a torii reading it would swallow the rest.
  said=$("$dir/torii" --version </dev/null 2>/dev/null | head -n 1)
  installed=$(version_numbers "$said")
  if [ -n "$installed" ] && older_than "$(version_numbers "$version")" "$installed"; then
    fail "the latest release, $version, is older than the torii in $dir ($said): nothing was installed (--version $version installs it on purpose)"
  fi
fi

asset=torii-$version-$platform.tar.gz
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torii-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

fetch "$base/download/$version/$asset" "$tmp/$asset" \
  || download_failed $? "cannot download $base/download/$version/$asset"
fetch "$base/download/$version/$asset.sha256" "$tmp/$asset.sha256" \
  || download_failed $? "cannot download the checksum $asset.sha256"
if [ "$check_signature" = yes ]; then
  fetch "$base/download/$version/$asset.sha256.minisig" "$tmp/$asset.sha256.minisig" \
    || fail "cannot download the signature $asset.sha256.minisig: the release may be unsigned; nothing was installed (--no-signature-check installs on the checksum alone)"
  signed_by_a_release_key "$tmp/$asset.sha256" "$tmp/$asset.sha256.minisig" \
    || fail "$asset.sha256 is not signed by a torii release key; nothing was installed"
else
  echo "torii install: not checking the release's signature (--no-signature-check)" >&2
fi
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
  previous=$("$dir/torii" --version </dev/null 2>/dev/null || echo "an unknown version")
fi
# Beside the destination, then renamed over it: a running torii keeps its old file.
cp "$new" "$dir/.torii.new.$$"
chmod 0755 "$dir/.torii.new.$$"
mv -f "$dir/.torii.new.$$" "$dir/torii"
current=$("$dir/torii" --version </dev/null 2>/dev/null || echo "torii $version")

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
