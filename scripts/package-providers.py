#!/usr/bin/env python3
"""Packs the official provider packages as a release publishes them: a catalog of its own.

    python scripts/package-providers.py OUT_DIR

writes, from examples/providers/ (the same files built into torii):

    OUT_DIR/provider-<name>-<version>.zip    each holding <name>/manifest.yaml, ...
    OUT_DIR/index.yaml                       a catalog listing them (docs/src/packages.md)

The release workflow then signs index.yaml and every archive with the release key
(scripts/sign-release.py), so that `TORII_PROVIDER_CATALOG=<release>/index.yaml torii provider
install aws` and an install from an archive's URL are both signed. The same files give the
same bytes: entries sorted, fixed times and permissions. Needs PyYAML (to read the manifests).
"""

import hashlib
import json
import pathlib
import sys
import zipfile

import yaml

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ROOT / "examples" / "providers"


def pack(package, out):
    manifest = yaml.safe_load((package / "manifest.yaml").read_text(encoding="utf-8"))
    name, version = manifest["name"], manifest["package_version"]
    if name != package.name:
        sys.exit(f"package-providers: {package}/manifest.yaml names {name!r}")
    archive = out / f"provider-{name}-{version}.zip"
    with zipfile.ZipFile(archive, "w") as zip_file:
        for path in sorted(p for p in package.rglob("*") if p.is_file()):
            entry = zipfile.ZipInfo(f"{name}/{path.relative_to(package).as_posix()}")
            entry.date_time = (1980, 1, 1, 0, 0, 0)
            entry.external_attr = 0o100644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            zip_file.writestr(entry, path.read_bytes())
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    description = " ".join(str(manifest["description"]).split())
    return name, version, description, archive.name, digest


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    # JSON strings are YAML strings: no quoting rule of YAML's can change a value.
    lines = ['version: "1"', "providers:"]
    for package in sorted(p for p in PACKAGES.iterdir() if p.is_dir()):
        name, version, description, source, digest = pack(package, out)
        lines += [
            f"  - name: {json.dumps(name)}",
            f"    version: {json.dumps(version)}",
            f"    description: {json.dumps(description)}",
            f"    source: {json.dumps(source)}",
            f"    sha256: {digest}",
        ]
    (out / "index.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(out / "index.yaml")


if __name__ == "__main__":
    main()
