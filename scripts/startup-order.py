#!/usr/bin/env python3
"""Regenerates link/startup-order.txt, the list of functions the MCP server runs.

The release link places these functions next to each other (lld's --symbol-ordering-file, see
build.rs), so the pages of code an idle server keeps resident are few and contiguous instead of
scattered over the whole binary. This script builds an unstripped release binary, runs a short
MCP session under valgrind's callgrind (startup, initialize, tools/list, torii_policy, one
allowed and one denied call, shutdown) and writes the names of every function of the binary
that ran, sorted by name.

Run it after upgrading Rust or dependencies (their symbol names change) and commit the result:

    python3 scripts/startup-order.py

Needs valgrind. A stale list never breaks the build; it only makes the server use more memory
(the `mcp` benchmark reports the idle RSS).
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORDER_FILE = ROOT / "link" / "startup-order.txt"
TARGET_DIR = ROOT / "target" / "startup-order"


def build() -> Path:
    env = dict(os.environ, TORII_KEEP_SYMBOLS="1")
    subprocess.run(
        ["cargo", "build", "--release", "--bin", "torii", "--target-dir", str(TARGET_DIR)],
        cwd=ROOT,
        env=env,
        check=True,
    )
    return TARGET_DIR / "release" / "torii"


def config_root(base: Path) -> Path:
    provider = base / "providers" / "demo"
    provider.mkdir(parents=True)
    (provider / "provider.yaml").write_text(
        'version: "1"\nname: demo\ntool: demo\ndescription: profile\ncommand: "true"\n'
    )
    (provider / "rules.yaml").write_text(
        'version: "1"\naccept:\n  - "status"\ndeny:\n  - "push"\n'
    )
    return base


def session() -> bytes:
    def call(id_, name, arguments):
        return {
            "jsonrpc": "2.0",
            "id": id_,
            "method": "tools/call",
            "params": {"name": name, "arguments": arguments},
        }

    messages = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "startup-order", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        call(3, "torii_policy", {"provider": "demo"}),
        call(4, "demo", {"args": ["status"]}),
        call(5, "demo", {"args": ["push"]}),
    ]
    return "".join(json.dumps(message) + "\n" for message in messages).encode()


def profile(binary: Path, root: Path, out: Path) -> None:
    env = dict(os.environ, TORII_CONFIG_DIR=str(root), TORII_NO_GUI="1")
    # Requests are answered before stdin closes; the server then shuts down normally.
    subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            "--compress-strings=no",
            "--demangle=no",
            str(binary),
        ],
        input=session(),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=True,
        timeout=300,
    )


def defined_functions(binary: Path) -> set[str]:
    listing = subprocess.run(
        ["nm", "--defined-only", str(binary)], capture_output=True, text=True, check=True
    ).stdout
    return {
        fields[2]
        for fields in (line.split() for line in listing.splitlines())
        if len(fields) == 3 and fields[1] in "tTwW"
    }


def executed(callgrind_out: Path) -> set[str]:
    """Every function callgrind saw run (with --compress-strings=no, `fn=` lines name them)."""
    return {
        line[len("fn=") :]
        for line in callgrind_out.read_text(errors="replace").splitlines()
        if line.startswith("fn=")
    }


def main() -> int:
    if shutil.which("valgrind") is None:
        print("startup-order: valgrind is needed (apt-get install valgrind)", file=sys.stderr)
        return 1
    binary = build()
    with tempfile.TemporaryDirectory() as scratch:
        scratch = Path(scratch)
        root = config_root(scratch / "config")
        out = scratch / "callgrind.out"
        profile(binary, root, out)
        ran = sorted(executed(out) & defined_functions(binary))
    ORDER_FILE.parent.mkdir(exist_ok=True)
    ORDER_FILE.write_text("".join(name + "\n" for name in ran))
    print(f"startup-order: {len(ran)} functions written to {ORDER_FILE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
