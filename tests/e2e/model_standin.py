#!/usr/bin/env python3
"""Offline stand-in for the model APIs of agent CLIs (stdlib only, never contacts the internet).

It plays a model that asks the agent to run ONE shell command and then says "done", so a test
can drive a real agent client (Claude Code, Gemini CLI, Codex) headless and check what the
client did with that tool call: whether a pre-tool hook ran, whether the command ran, and what
the client sent back to the model as the tool result.

Usage:
    model_standin.py --command "kubectl get pods" --log /tmp/requests.jsonl [--exit-on-stdin-eof]
                     [--tool Write --input '{"file_path": "/x", "content": "y"}']

With --tool, the model calls that tool (when the request offers it; Anthropic and Gemini APIs)
with the --input arguments instead of the shell tool.

It binds 127.0.0.1 on an ephemeral port, prints `PORT <n>` as the first stdout line (flushed),
then serves until it gets SIGTERM/SIGINT, or, with --exit-on-stdin-eof, until its stdin closes
(handy when a test holds the other end of a pipe and may die without cleaning up).

Point the clients at it with:
    Claude Code  ANTHROPIC_BASE_URL=http://127.0.0.1:<n>  ANTHROPIC_API_KEY=fake
    Gemini CLI   GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:<n>  GEMINI_API_KEY=fake
    Codex        a model provider with base_url = "http://127.0.0.1:<n>/v1", wire_api = "responses"

APIs served (anything else gets a logged 404 with a JSON error body):
    Anthropic Messages  POST /v1/messages[?beta=true] (stream or not), POST /v1/messages/count_tokens
    Gemini              POST /v1beta/models/<m>:streamGenerateContent?alt=sse, :generateContent,
                        :countTokens  (also under /v1/ and /v1alpha/)
    OpenAI Responses    POST /v1/responses (stream or not); GET /v1/models
    GET/HEAD /          200 (Claude Code's preconnect probe)
    CONNECT host:443    logged as "connect_refused" and refused with 403: give a client
                        HTTPS_PROXY=http://127.0.0.1:<n> (NO_PROXY=127.0.0.1,localhost) to see which
                        outside hosts it tries (checked with Claude Code; Gemini CLI and Codex
                        were checked with strace instead). Absolute-URI requests (plain HTTP
                        proxying) get the same 403.

Decision per model request: if the conversation already holds a tool result (Anthropic
`tool_result`, Gemini `functionResponse`, OpenAI `function_call_output`/`custom_tool_call_output`/
`local_shell_call_output`) the reply is the text "done" (end of turn). Otherwise, if the request
offers the client's shell tool (Anthropic `Bash`; Gemini `run_shell_command`; OpenAI `shell`,
`shell_command`, `exec_command`, `local_shell` or a tool of type `local_shell`) the reply is a call
of that tool running --command. Any other request (title generation, quota probes, summaries,
next-speaker checks...) gets a short text, or for JSON-schema requests a JSON object fitted to
the schema.

Shell tool arguments: Claude `Bash` {"command", "description"}; Gemini `run_shell_command`
{"command", "description"}; Codex `exec_command` {"cmd", "login": false} (login=false because a
login shell re-reads /etc/profile, which resets PATH and would bypass a fake program that the test
put first on PATH), `shell` {"command": ["bash", "-c", CMD]}, `shell_command` {"command": CMD}.

Log: one JSON object per line, appended to --log and flushed at once (API keys other than "fake"
are shown as "<redacted>"):
    {"time": <epoch s>, "method": "POST", "path": "/v1/messages?beta=true",
     "headers": {...selected headers...}, "body": <parsed JSON or raw text or null>,
     "api": "anthropic"|"gemini"|"openai"|null, "reply": "tool_call"|"done"|"text"|"json"|...}
"""
import argparse
import json
import os
import re
import signal
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

LOGGED_HEADERS = (
    "user-agent", "content-type", "anthropic-version", "anthropic-beta", "x-api-key",
    "x-goog-api-key", "authorization", "x-app", "originator", "accept",
)

SECRET_HEADERS = ("x-api-key", "x-goog-api-key", "authorization")

OPENAI_SHELL_NAMES = ("shell", "shell_command", "exec_command", "local_shell", "container.exec")


def new_id(prefix):
    return prefix + uuid.uuid4().hex[:24]


# --------------------------------------------------------------------------------------------
# JSON-schema filler (for side requests that ask for structured output)
# --------------------------------------------------------------------------------------------

def fill_schema(schema, name=""):
    """Smallest plausible value for a JSON schema (Gemini Schema or JSON Schema)."""
    if not isinstance(schema, dict):
        return "done"
    if "enum" in schema and schema["enum"]:
        enum = schema["enum"]
        # Gemini CLI's next-speaker check: "user" ends the turn, which is what we want.
        for preferred in ("user", "flash"):
            if preferred in enum:
                return preferred
        return enum[0]
    if "const" in schema:
        return schema["const"]
    for key in ("anyOf", "oneOf", "allOf"):
        if schema.get(key):
            return fill_schema(schema[key][0], name)
    typ = schema.get("type")
    if isinstance(typ, list):
        typ = next((t for t in typ if str(t).lower() != "null"), typ[0] if typ else "string")
    typ = str(typ or ("object" if "properties" in schema else "string")).lower()
    if typ == "object":
        props = schema.get("properties") or {}
        return {key: fill_schema(sub, key) for key, sub in props.items()}
    if typ == "array":
        return []
    if typ in ("integer", "number"):
        # 1, not 0: side requests ask for scores like "complexity from 1-100" without a minimum
        value = schema.get("minimum", 1)
        if "maximum" in schema:
            value = min(value, schema["maximum"])
        return int(value) if typ == "integer" else value
    if typ == "boolean":
        return False
    if name in ("title",):
        return "Run command"
    return "done"


# --------------------------------------------------------------------------------------------
# Anthropic Messages API (Claude Code)
# --------------------------------------------------------------------------------------------

def anthropic_has_tool_result(body):
    for msg in body.get("messages") or []:
        content = msg.get("content")
        if isinstance(content, list):
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    return True
    return False


def anthropic_offers(body, name):
    return any(isinstance(tool, dict) and tool.get("name") == name
               for tool in body.get("tools") or [])


def anthropic_plan(body, command, call=None):
    """(reply kind, content blocks, stop_reason)"""
    if anthropic_has_tool_result(body):
        return "done", [{"type": "text", "text": "done"}], "end_turn"
    name, arguments = call or ("Bash", {"command": command,
                                        "description": "Run the requested command"})
    if anthropic_offers(body, name):
        block = {
            "type": "tool_use",
            "id": new_id("toolu_"),
            "name": name,
            "input": arguments,
        }
        return "tool_call", [block], "tool_use"
    fmt = body.get("output_format") or body.get("output_config", {}).get("format")
    if isinstance(fmt, dict) and isinstance(fmt.get("schema"), dict):
        return "json", [{"type": "text", "text": json.dumps(fill_schema(fmt["schema"]))}], "end_turn"
    return "text", [{"type": "text", "text": "done"}], "end_turn"


def anthropic_message(body, blocks, stop_reason):
    return {
        "id": new_id("msg_"),
        "type": "message",
        "role": "assistant",
        "model": body.get("model") or "claude-standin",
        "content": blocks,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5,
                  "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
    }


def sse(event, data):
    return ("event: %s\ndata: %s\n\n" % (event, json.dumps(data))).encode()


def anthropic_stream(msg):
    out = []
    start = dict(msg, content=[], stop_reason=None)
    start["usage"] = dict(msg["usage"], output_tokens=1)
    out.append(sse("message_start", {"type": "message_start", "message": start}))
    for index, block in enumerate(msg["content"]):
        if block["type"] == "tool_use":
            opened = dict(block, input={})
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            opened = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        out.append(sse("content_block_start",
                       {"type": "content_block_start", "index": index, "content_block": opened}))
        out.append(sse("ping", {"type": "ping"}))
        out.append(sse("content_block_delta",
                       {"type": "content_block_delta", "index": index, "delta": delta}))
        out.append(sse("content_block_stop", {"type": "content_block_stop", "index": index}))
    out.append(sse("message_delta", {
        "type": "message_delta",
        "delta": {"stop_reason": msg["stop_reason"], "stop_sequence": None},
        "usage": {"output_tokens": msg["usage"]["output_tokens"]},
    }))
    out.append(sse("message_stop", {"type": "message_stop"}))
    return b"".join(out)


# --------------------------------------------------------------------------------------------
# Gemini API (Gemini CLI)
# --------------------------------------------------------------------------------------------

def gemini_has_function_response(body):
    for content in body.get("contents") or []:
        for part in (content or {}).get("parts") or []:
            if isinstance(part, dict) and "functionResponse" in part:
                return True
    return False


def gemini_offers(body, name):
    return any(decl.get("name") == name
               for tool in body.get("tools") or []
               for decl in (tool or {}).get("functionDeclarations") or [])


def gemini_plan(body, command, call=None):
    """(reply kind, parts)"""
    if gemini_has_function_response(body):
        return "done", [{"text": "done"}]
    name, arguments = call or ("run_shell_command", {"command": command,
                                                     "description": "Run the requested command"})
    if gemini_offers(body, name):
        return "tool_call", [{"functionCall": {"name": name, "args": arguments}}]
    config = body.get("generationConfig") or body.get("config") or {}
    schema = config.get("responseJsonSchema") or config.get("responseSchema")
    if config.get("responseMimeType") == "application/json" or schema:
        return "json", [{"text": json.dumps(fill_schema(schema or {}))}]
    return "text", [{"text": "done"}]


def gemini_response(model, parts):
    return {
        "candidates": [{
            "content": {"role": "model", "parts": parts},
            "finishReason": "STOP",
            "index": 0,
        }],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": model,
        "responseId": new_id("resp"),
    }


# --------------------------------------------------------------------------------------------
# OpenAI Responses API (Codex)
# --------------------------------------------------------------------------------------------

def openai_has_tool_output(body):
    items = body.get("input")
    if not isinstance(items, list):
        return False
    for item in items:
        if isinstance(item, dict) and item.get("type") in (
                "function_call_output", "custom_tool_call_output", "local_shell_call_output"):
            return True
    return False


def openai_tool_name(tool):
    if tool.get("type") == "local_shell":
        return "local_shell"
    return tool.get("name") or (tool.get("function") or {}).get("name")


def openai_shell_tool(body):
    tools = [t for t in body.get("tools") or [] if isinstance(t, dict)]
    for wanted in OPENAI_SHELL_NAMES:
        for tool in tools:
            if openai_tool_name(tool) == wanted:
                return tool
    return None


def openai_shell_item(tool, command):
    name = openai_tool_name(tool)
    call_id = new_id("call_")
    if tool.get("type") == "local_shell":
        return {"type": "local_shell_call", "id": new_id("lsh_"), "call_id": call_id,
                "status": "completed",
                "action": {"type": "exec", "command": ["bash", "-c", command]}}
    params = tool.get("parameters") or (tool.get("function") or {}).get("parameters") or {}
    props = params.get("properties") or {}
    args = {}
    if "cmd" in props:
        args["cmd"] = command
    elif "command" in props and str(props["command"].get("type")) == "array":
        args["command"] = ["bash", "-c", command]
    else:
        args["command"] = command
    if "login" in props:
        # Codex's exec_command defaults to a login shell, and /etc/profile then resets PATH:
        # a fake program placed first on PATH by the test would be bypassed.
        args["login"] = False
    if "justification" in props and "justification" in (params.get("required") or []):
        args["justification"] = "Run the requested command"
    return {"type": "function_call", "id": new_id("fc_"), "call_id": call_id, "name": name,
            "arguments": json.dumps(args), "status": "completed"}


def openai_plan(body, command):
    """(reply kind, output items)"""
    message = {"type": "message", "id": new_id("msg_"), "role": "assistant", "status": "completed",
               "content": [{"type": "output_text", "text": "done", "annotations": []}]}
    if openai_has_tool_output(body):
        return "done", [message]
    tool = openai_shell_tool(body)
    if tool is not None:
        return "tool_call", [openai_shell_item(tool, command)]
    fmt = ((body.get("text") or {}).get("format") or {})
    if isinstance(fmt.get("schema"), dict):
        message["content"][0]["text"] = json.dumps(fill_schema(fmt["schema"]))
        return "json", [message]
    return "text", [message]


def openai_response(body, items):
    return {
        "id": new_id("resp_"),
        "object": "response",
        "created_at": int(time.time()),
        "status": "completed",
        "model": body.get("model") or "gpt-standin",
        "output": items,
        "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                  "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
                  "total_tokens": 15},
    }


def openai_stream(resp):
    out = []
    seq = 0

    def emit(event, data):
        nonlocal seq
        data = dict(data, type=event, sequence_number=seq)
        seq += 1
        out.append(sse(event, data))

    created = dict(resp, status="in_progress", output=[], usage=None)
    emit("response.created", {"response": created})
    emit("response.in_progress", {"response": created})
    for index, item in enumerate(resp["output"]):
        emit("response.output_item.added", {"output_index": index,
                                            "item": dict(item, status="in_progress")})
        if item["type"] == "message":
            text = item["content"][0]["text"]
            emit("response.output_text.delta", {"item_id": item["id"], "output_index": index,
                                                "content_index": 0, "delta": text})
            emit("response.output_text.done", {"item_id": item["id"], "output_index": index,
                                               "content_index": 0, "text": text})
        elif item["type"] == "function_call":
            emit("response.function_call_arguments.delta",
                 {"item_id": item["id"], "output_index": index, "delta": item["arguments"]})
            emit("response.function_call_arguments.done",
                 {"item_id": item["id"], "output_index": index, "arguments": item["arguments"]})
        emit("response.output_item.done", {"output_index": index, "item": item})
    emit("response.completed", {"response": resp})
    return b"".join(out)


# --------------------------------------------------------------------------------------------
# HTTP plumbing
# --------------------------------------------------------------------------------------------

GEMINI_PATH = re.compile(r"^/v1(?:beta|alpha)?/models/([^/:]+):([A-Za-z]+)$")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "model-standin/1"

    def log_message(self, fmt, *args):  # keep stderr quiet; the JSON log is the record
        if self.server.verbose:
            sys.stderr.write("standin: " + (fmt % args) + "\n")

    # -- helpers ---------------------------------------------------------------------------
    def read_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            raw = self.read_chunked()
        if self.headers.get("Content-Encoding", "").lower() in ("gzip", "zstd", "br", "deflate"):
            enc = self.headers.get("Content-Encoding").lower()
            if enc == "gzip":
                import gzip
                raw = gzip.decompress(raw)
            elif enc == "deflate":
                import zlib
                raw = zlib.decompress(raw)
        if not raw:
            return None
        try:
            return json.loads(raw.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            return raw.decode("utf-8", "replace")

    def read_chunked(self):
        data = b""
        while True:
            line = self.rfile.readline().strip()
            size = int(line.split(b";")[0], 16) if line else 0
            if size == 0:
                self.rfile.readline()
                return data
            data += self.rfile.read(size)
            self.rfile.readline()

    def record(self, body, api, reply, status):
        headers = {k: v for k, v in self.headers.items() if k.lower() in LOGGED_HEADERS}
        for key in list(headers):
            if key.lower() in SECRET_HEADERS and headers[key] not in ("fake", "Bearer fake"):
                headers[key] = "<redacted>"
        entry = {"time": round(time.time(), 3), "method": self.command, "path": self.path,
                 "headers": headers, "body": body, "api": api, "reply": reply, "status": status}
        with self.server.log_lock:
            if self.server.log_file:
                self.server.log_file.write(json.dumps(entry) + "\n")
                self.server.log_file.flush()

    def send(self, status, payload, content_type="application/json", extra=None):
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("request-id", new_id("req_"))
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        if content_type == "text/event-stream":
            self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
            self.wfile.flush()

    # -- dispatch ---------------------------------------------------------------------------
    def do_GET(self):
        self.dispatch()

    def do_HEAD(self):
        self.dispatch()

    def do_POST(self):
        self.dispatch()

    def do_PUT(self):
        self.dispatch()

    def do_DELETE(self):
        self.dispatch()

    def do_CONNECT(self):
        # Reached only when a client is given HTTPS_PROXY=http://127.0.0.1:<port>: it reveals
        # which outside hosts the client tries (telemetry, update checks) and refuses them.
        self.record(None, None, "connect_refused", 403)
        self.send(403, {"error": {"message": "model stand-in: no internet"}},
                  extra={"Connection": "close"})
        self.close_connection = True

    def dispatch(self):
        body = self.read_body() if self.command in ("POST", "PUT") else None
        if self.path.startswith(("http://", "https://")):  # used as a plain HTTP proxy
            self.record(body, None, "proxy_refused", 403)
            return self.send(403, {"error": {"message": "model stand-in: no internet"}})
        path = urlsplit(self.path).path
        query = urlsplit(self.path).query
        command = self.server.shell_command
        try:
            if path == "/v1/messages/count_tokens" and self.command == "POST":
                self.record(body, "anthropic", "count_tokens", 200)
                return self.send(200, {"input_tokens": 10})
            if path == "/v1/messages" and self.command == "POST":
                return self.anthropic(body or {}, command)
            match = GEMINI_PATH.match(path)
            if match and self.command == "POST":
                return self.gemini(body or {}, match.group(1), match.group(2), query, command)
            if path == "/v1/responses" and self.command == "POST":
                return self.openai(body or {}, command)
            if path == "/" and self.command in ("GET", "HEAD"):  # Claude Code's preconnect
                self.record(body, None, "root", 200)
                return self.send(200, {"ok": True, "server": "model-standin"})
            if path == "/v1/models" and self.command in ("GET", "HEAD"):
                self.record(body, "openai", "models", 200)
                return self.send(200, {"object": "list", "data": [], "models": []})
            self.record(body, None, "not_found", 404)
            return self.send(404, {"error": {"type": "not_found_error", "code": 404,
                                             "message": "model stand-in: no such endpoint " + path}})
        except (BrokenPipeError, ConnectionResetError):
            return None

    def anthropic(self, body, command):
        kind, blocks, stop = anthropic_plan(body, command, self.server.tool_call)
        self.record(body, "anthropic", kind, 200)
        msg = anthropic_message(body, blocks, stop)
        if body.get("stream"):
            return self.send(200, anthropic_stream(msg), "text/event-stream")
        return self.send(200, msg)

    def gemini(self, body, model, method, query, command):
        if method == "countTokens":
            self.record(body, "gemini", "count_tokens", 200)
            return self.send(200, {"totalTokens": 10})
        if method == "embedContent":
            self.record(body, "gemini", "embedding", 200)
            return self.send(200, {"embedding": {"values": [0.0] * 8}})
        if method not in ("generateContent", "streamGenerateContent"):
            self.record(body, "gemini", "not_found", 404)
            return self.send(404, {"error": {"code": 404, "status": "NOT_FOUND",
                                             "message": "model stand-in: no method " + method}})
        kind, parts = gemini_plan(body, command, self.server.tool_call)
        self.record(body, "gemini", kind, 200)
        resp = gemini_response(model, parts)
        if method == "streamGenerateContent":
            if "alt=sse" in query:
                return self.send(200, ("data: %s\r\n\r\n" % json.dumps(resp)).encode(),
                                 "text/event-stream")
            return self.send(200, [resp])
        return self.send(200, resp)

    def openai(self, body, command):
        kind, items = openai_plan(body, command)
        self.record(body, "openai", kind, 200)
        resp = openai_response(body, items)
        if body.get("stream"):
            return self.send(200, openai_stream(resp), "text/event-stream")
        return self.send(200, resp)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--command", required=True,
                        help="shell command the fake model asks the agent to run")
    parser.add_argument("--tool", help="call this tool instead of the shell (Anthropic and "
                        "Gemini APIs), with --input as its arguments")
    parser.add_argument("--input", default="{}", help="the JSON arguments of --tool")
    parser.add_argument("--log", help="append one JSON line per received request to this file")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default 0: ephemeral)")
    parser.add_argument("--exit-on-stdin-eof", action="store_true",
                        help="also stop when stdin reaches end of file")
    parser.add_argument("--verbose", action="store_true", help="log each request line on stderr")
    args = parser.parse_args()

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.shell_command = args.command
    server.tool_call = (args.tool, json.loads(args.input)) if args.tool else None
    server.verbose = args.verbose
    server.log_lock = threading.Lock()
    server.log_file = open(args.log, "a", encoding="utf-8") if args.log else None

    def stop(*_):
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if args.exit_on_stdin_eof:
        def watch():
            try:
                while os.read(sys.stdin.fileno(), 4096):
                    pass
            except OSError:
                pass
            stop()
        threading.Thread(target=watch, daemon=True).start()

    sys.stdout.write("PORT %d\n" % server.server_address[1])
    sys.stdout.flush()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
        if server.log_file:
            server.log_file.close()


if __name__ == "__main__":
    main()
