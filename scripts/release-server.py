#!/usr/bin/env python3
"""Serves a directory of release archives over HTTPS on 127.0.0.1, laid out as GitHub lays out
releases, so an installer can be run against archives that are not published yet (the release
workflow runs install.ps1 against the Windows archive it has just built; the Rust tests have the
same server in tests/it/pack.rs).

    python scripts/release-server.py DIST TAG STATE

    <base>/latest              302 to <base>/tag/TAG
    <base>/tag/TAG             a release page
    <base>/download/TAG/NAME   the file DIST/NAME
    /install.ps1, /install.sh  the installers of this checkout

where <base> is https://127.0.0.1:<port>/releases. A new CA signs the server's certificate:
STATE receives ca.pem and ca.cer (the CA in PEM and DER, for whoever must trust it), then
base.txt holding <base> once the server listens. Needs the `cryptography` package.
"""

import datetime
import http.server
import ipaddress
import os
import pathlib
import ssl
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

REPO = pathlib.Path(__file__).resolve().parent.parent


def certificate(subject, issuer, key, signer_key, ca, san=None):
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
        .issuer_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, issuer)]))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(signer_key.public_key()),
            critical=False,
        )
    )
    if ca:
        usage = dict(digital_signature=True, key_cert_sign=True, crl_sign=True)
    else:
        usage = dict(digital_signature=True, key_encipherment=True, key_cert_sign=False, crl_sign=False)
        builder = builder.add_extension(x509.SubjectAlternativeName(san), critical=False)
        builder = builder.add_extension(
            x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False
        )
    defaults = dict(
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        encipher_only=False,
        decipher_only=False,
    )
    builder = builder.add_extension(x509.KeyUsage(**{**defaults, **usage}), critical=True)
    return builder.sign(signer_key, hashes.SHA256())


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    dist, tag, state = pathlib.Path(sys.argv[1]), sys.argv[2], pathlib.Path(sys.argv[3])
    state.mkdir(parents=True, exist_ok=True)

    ca_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ca = certificate("Torii release check CA", "Torii release check CA", ca_key, ca_key, True)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    # The address as an IP entry and, for verifiers that compare the host as text, a DNS one.
    names = [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("127.0.0.1")]
    leaf = certificate("127.0.0.1", "Torii release check CA", key, ca_key, False, names)
    (state / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    (state / "ca.cer").write_bytes(ca.public_bytes(serialization.Encoding.DER))
    (state / "server.pem").write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    (state / "server.key").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            path = self.path.split("?", 1)[0]
            download = f"/releases/download/{tag}/"
            if path == "/releases/latest":
                self.answer(302, b"", location=f"{base}/tag/{tag}")
            elif path == f"/releases/tag/{tag}":
                self.answer(200, f"release {tag}\n".encode(), "text/plain; charset=utf-8")
            elif path in ("/install.ps1", "/install.sh"):
                self.answer(200, (REPO / path[1:]).read_bytes(), "text/plain; charset=utf-8")
            elif path.startswith(download) and "/" not in path[len(download):]:
                file = dist / path[len(download):]
                if file.name and file.is_file():
                    self.answer(200, file.read_bytes())
                else:
                    self.answer(404, b"not found\n")
            else:
                self.answer(404, b"not found\n")

        # The same headers without the body (`torii self upgrade` asks for `latest` this way).
        def do_HEAD(self):
            self.head = True
            self.do_GET()

        def answer(self, status, body, kind="application/octet-stream", location=None):
            self.send_response(status)
            if location:
                self.send_header("Location", location)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if not getattr(self, "head", False):
                self.wfile.write(body)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(state / "server.pem", state / "server.key")
    server.socket = context.wrap_socket(server.socket, server_side=True)
    base = f"https://127.0.0.1:{server.server_address[1]}/releases"
    # Written whole, then renamed: whoever waits for base.txt never reads half of it.
    (state / "base.tmp").write_text(base)
    os.replace(state / "base.tmp", state / "base.txt")
    print(f"serving {dist} as release {tag} at {base}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
