#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora, fuzz/corpus/<target>/<sha1>, from the inputs the
tests already use: the shell-guard corpus, the official packages (provider.yaml, rules,
env.example, archives of them), the documented settings, lease, JSON-RPC and hook shapes.

    python3 scripts/fuzz-seeds.py

Run it again after changing those sources; the seeds it writes are committed, and the suite
replays them (src/fuzzing.rs). Inputs that once failed go to fuzz/regressions/<target>/ by
hand, never here. Standard library only.
"""

import hashlib
import io
import json
import pathlib
import tarfile
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
PACKAGES = ROOT / "examples" / "providers"


def write(target, data):
    if isinstance(data, str):
        data = data.encode()
    directory = CORPUS / target
    directory.mkdir(parents=True, exist_ok=True)
    (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)


def guard_records():
    text = (ROOT / "crates/shell-guard/tests/corpus.txt").read_text()
    for chunk in text.rstrip("\n").split("\n---\n"):
        lines = [l for l in chunk.split("\n") if not (l.startswith("#") or not l.strip())]
        # A record: its expectation line, then the command line (which may span lines).
        if len(lines) >= 2:
            yield "\n".join(lines[1:])


def shell_guard():
    for command in guard_records():
        write("shell_guard", b"\x00" + command.encode())
    for selector, command in [
        (1, "& torii doctor"),
        (1, "aws s3 ls; Get-ChildItem $Env:USERPROFILE"),
        (2, "cmd /c torii target use prod"),
        (2, 'set X=1 && "kubectl" get pods'),
    ]:
        write("shell_guard", bytes([selector]) + command.encode())


def hook_input():
    commands = ["torii doctor", "ls ~/.config/torii", "kubectl get pods", "git status"]
    shapes = [
        lambda c: {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": c}},
        lambda c: {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command", "tool_input": {"command": c}},
        lambda c: {"hook_event_name": "beforeShellExecution", "command": c, "cwd": "/"},
        lambda c: {"toolCall": {"name": "run_command", "args": {"CommandLine": c}}},
        lambda c: {"hook_event_name": "PreToolUse", "tool_name": "Read", "tool_input": {"file_path": c}},
    ]
    for agent in range(9):
        for shape in shapes:
            for command in commands:
                write("hook_input", bytes([agent]) + json.dumps(shape(command)).encode())
    write("hook_input", b"\x01not json")


def package_files():
    for package in sorted(p for p in PACKAGES.iterdir() if p.is_dir()):
        for path in sorted(p for p in package.rglob("*") if p.is_file()):
            yield package.name, path.relative_to(package).as_posix(), path.read_bytes()


def yaml_files():
    for _, name, data in package_files():
        if name == "provider.yaml":
            write("provider_yaml", data)
        elif name.endswith("rules.yaml"):
            write("rules_yaml", data)
        elif name == "env.example":
            write("dotenv", data)
    demo = ROOT / "examples" / "demo" / "git"
    for name, target in [("provider.yaml", "provider_yaml"), ("rules.yaml", "rules_yaml")]:
        if (demo / name).is_file():
            write(target, (demo / name).read_bytes())


def settings_yaml():
    write("settings_yaml", "max_output_bytes: 262144\ndefault_grant_minutes: 2\n"
          "default_target_minutes: 15\nchild_confinement: best-effort\n"
          "call_timeout_seconds: 600\nmax_concurrent_calls: 16\nlanguage: pt-BR\n"
          "approval: console\n")
    write("settings_yaml", "package_keys:\n  - RWRk6hcJqPxg9Q2aAwljy7deqrzWTZ8dj2rogAXQrn9kMzq4od29YkrS\n"
          "unsigned_packages: refuse\n")
    write("settings_yaml", 'default_target_minutes: "x"\n')
    write("settings_yaml", "# comments only\n")


def lease_file():
    digest = "ab" * 32
    write("lease_file", 'version: "1"\nrevision: 3\nentries: []\n')
    write("lease_file", 'version: "1"\nrevision: 7\nentries:\n'
          f'  - alias: prod\n    binding_sha256: "{digest}"\n    expires_at: 1784000000\n'
          f'  - alias: lab\n    binding_sha256: "{digest}"\n    expires_at: 1784000900\n')
    write("lease_file", 'version: "2"\nrevision: 1\nentries: []\n')


def jsonrpc_line():
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "fuzz", "version": "0"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
         "params": {"name": "kubectl", "arguments": {"args": ["get", "pods"]}}},
        {"jsonrpc": "2.0", "id": "x", "method": "tools/call",
         "params": {"name": "aws", "arguments": {"target": "prod", "args": ["sts", "get-caller-identity"]}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": []},
    ]
    for line in lines:
        write("jsonrpc_line", json.dumps(line))
    write("jsonrpc_line", "\n".join(json.dumps(line) for line in lines))
    write("jsonrpc_line", '{"jsonrpc": "2.0", "id": null, "method": "ping"}\n{not json\n')


def archive():
    files = [(n, d) for p, n, d in package_files() if p == "kubectl"]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zip_file:
        for name, data in files:
            zip_file.writestr(zipfile.ZipInfo(f"kubectl/{name}", (1980, 1, 1, 0, 0, 0)), data)
    write("archive", buffer.getvalue())
    for mode in ["w", "w:gz"]:
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode=mode) as tar:
            for name, data in files:
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
        write("archive", buffer.getvalue())


def dotenv():
    write("dotenv", 'export AWS_REGION=us-east-1\nNAME="a \\"quoted\\" value" # note\n'
          "LITERAL='$HOME'\n# comment\n\nEMPTY=\n")


def clipboard():
    write("clipboard", "export AWS_ACCESS_KEY_ID=AKIA\nSET AWS_SECRET_ACCESS_KEY=s3cr3t\n"
          "$Env:TOKEN = 'abc'\nOTHER=1\n")


def main():
    shell_guard()
    hook_input()
    yaml_files()
    settings_yaml()
    lease_file()
    jsonrpc_line()
    archive()
    dotenv()
    clipboard()
    for directory in sorted(CORPUS.iterdir()):
        print(f"{directory.relative_to(ROOT)}: {len(list(directory.iterdir()))} seeds")


if __name__ == "__main__":
    main()
