#!/usr/bin/env python3
"""Signs release files in minisign's format (Ed25519 over the file's BLAKE2b-512), which
`torii self upgrade` verifies with the public keys compiled into it, and install.sh with
`minisign` or OpenSSL 3. The release workflow signs each `.sha256` with the key held in the
repository secret; the tests sign with a key they make.

    python scripts/sign-release.py keygen SECRET_FILE     make a key pair; print the public key
    python scripts/sign-release.py sign FILE...           write FILE.minisig for each FILE

`sign` reads the secret key from TORII_RELEASE_SIGNING_KEY (its text, as `keygen` wrote it).
The public key is printed as minisign prints it (base64 of "Ed", the key id, the key), for
`src/release.rs` and install.sh. Needs the `cryptography` package.
"""

import base64
import hashlib
import os
import pathlib
import sys
import time

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

SECRET_HEADER = "torii release signing key (secret)"


def public_key_line(key_id, private_key):
    public = private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return base64.b64encode(b"Ed" + key_id + public).decode()


def keygen(path):
    key_id = os.urandom(8)
    seed = os.urandom(32)
    secret = f"{SECRET_HEADER}\n{base64.b64encode(key_id + seed).decode()}\n"
    target = pathlib.Path(path)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(secret)
    print(public_key_line(key_id, Ed25519PrivateKey.from_private_bytes(seed)))


def load_secret():
    text = os.environ.get("TORII_RELEASE_SIGNING_KEY", "")
    lines = [line.strip() for line in text.strip().splitlines()]
    if len(lines) != 2 or lines[0] != SECRET_HEADER:
        sys.exit("sign-release: TORII_RELEASE_SIGNING_KEY does not hold a key made by `keygen`")
    raw = base64.b64decode(lines[1], validate=True)
    if len(raw) != 40:
        sys.exit("sign-release: the secret key has the wrong length")
    return raw[:8], Ed25519PrivateKey.from_private_bytes(raw[8:])


def sign(paths):
    key_id, private_key = load_secret()
    for path in map(pathlib.Path, paths):
        digest = hashlib.blake2b(path.read_bytes(), digest_size=64).digest()
        signature = private_key.sign(digest)
        trusted = f"timestamp:{int(time.time())}\tfile:{path.name}\thashed"
        global_signature = private_key.sign(signature + trusted.encode())
        lines = [
            "untrusted comment: signature from the torii release key",
            base64.b64encode(b"ED" + key_id + signature).decode(),
            f"trusted comment: {trusted}",
            base64.b64encode(global_signature).decode(),
        ]
        path.with_name(path.name + ".minisig").write_text("\n".join(lines) + "\n")
    print(public_key_line(key_id, private_key))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "keygen":
        keygen(sys.argv[2])
    elif len(sys.argv) >= 3 and sys.argv[1] == "sign":
        sign(sys.argv[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
