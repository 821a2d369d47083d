#!/usr/bin/env python3
"""One conversation of Google's Antigravity agent, driven through its Python SDK, offline.

The SDK (PyPI `google-antigravity`, pinned to 0.1.22) starts the Go harness it ships
(`google/antigravity/bin/localharness`, the agent loop and tools of the Antigravity CLI) and
talks to it over a loopback WebSocket. The harness asks the model through the public Gemini API
(`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`), here at --base-url: a stand-in
such as tests/e2e/model_standin.py. That makes a headless Antigravity turn a test can run: the
model asks for `run_command`, the harness runs the user's PreToolUse hooks from
`$HOME/.gemini/config/hooks.json` (where `torii agent install antigravity --hook` writes), then
runs the command or not, and sends the result back to the model.

Usage:
    HOME=<throwaway home> antigravity_sdk_driver.py --base-url http://127.0.0.1:<port> \\
        --workspace <dir> [--prompt "run it"] [--timeout 60] [--no-hooks-extension]

Stdout: one JSON object, {"completed": bool, "text": the agent's final text, "tool_calls":
[{"name", "args"}] (the calls the harness ran), "steps": [{"type", "status", "error"?,
"tool_calls"?}], "stop_reason", "error" (when not completed), "seconds"}. Exit status 0 when the conversation
completed, 1 when it failed, 2 on bad arguments, 124 when it ran out of time.

Network: the only model is the Gemini API endpoint at --base-url (GOOGLE_GEMINI_BASE_URL and
GEMINI_API_KEY=fake are also set for the harness), the policy allows every tool so nothing
waits for a human, and the tools that would reach out on the model's request (web search, URL
reading, image generation) and the others that a test does not need are not offered at all.
"""
import argparse
import asyncio
import json
import os
import signal
import sys
import threading
import time

# The hook discovery switch, in the SDK's first WebSocket message (InitializeConversationEvent,
# whose `config` is the HarnessConfig proto in JSON). The SDK has no public setting for it:
# without it the harness never reads hooks.json (the SDK's own Python hooks still run). The
# member is a proto extension internal to the harness (`jetski_prod.localharness`); its
# descriptor is compiled into the Go binary only, so it cannot be set on the Python proto and is
# added to the JSON text instead, which the harness parses with the extension registered.
# Found in, and only checked with, google-antigravity 0.1.22: another version may rename it, and
# then hooks.json is silently not loaded (a test must prove the hook ran, not assume it).
HOOKS_EXTENSION = "[jetski_prod.localharness.cascade_config_hillclimbing_override]"
HOOKS_OVERRIDE = {
    "cascadeConfig": {
        "plannerConfig": {
            "customizationDiscoveryConfig": {"hooks": {"inheritUser": True}},
        },
    },
}

PINNED_SDK = "0.1.22"

# Grace after --timeout for the SDK to tear the harness down before the process gives up.
TEARDOWN_GRACE = 15


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base-url", required=True,
                        help="the Gemini API stand-in, e.g. http://127.0.0.1:8080")
    parser.add_argument("--workspace", required=True, help="the agent's workspace directory")
    parser.add_argument("--prompt", default="run it", help="the user's message")
    parser.add_argument("--model", default="gemini-standin", help="model name in the URL")
    parser.add_argument("--timeout", type=float, default=60, help="seconds for the whole turn")
    parser.add_argument("--max-model-calls", type=int, default=6,
                        help="budget of model requests for the turn")
    parser.add_argument("--no-hooks-extension", action="store_true",
                        help="leave the HarnessConfig as the SDK makes it (hooks.json unread)")
    args = parser.parse_args()
    if not args.base_url.startswith(("http://127.0.0.1:", "http://localhost:", "http://[::1]:")):
        parser.error("--base-url must be on loopback (this driver never reaches the internet)")
    if not os.path.isdir(args.workspace):
        parser.error("--workspace is not a directory: " + args.workspace)
    if not os.environ.get("HOME"):
        parser.error("HOME must be set (to a throwaway home)")
    return args


def inject_hooks_extension():
    """Adds HOOKS_OVERRIDE to the HarnessConfig the SDK sends, and to nothing else."""
    from google.antigravity.connections.local import local_connection
    from google.antigravity.proto import localharness_pb2
    from google.protobuf import json_format

    real = json_format.MessageToJson

    def message_to_json(message, *args, **kwargs):
        text = real(message, *args, **kwargs)
        if isinstance(message, localharness_pb2.InitializeConversationEvent):
            event = json.loads(text)
            event.setdefault("config", {})[HOOKS_EXTENSION] = HOOKS_OVERRIDE
            text = json.dumps(event)
        return text

    # local_connection reaches json_format through its module global: give it a copy of the
    # module's namespace with this one function replaced (protobuf itself stays untouched).
    shim = type(json_format)("json_format_with_hooks")
    shim.__dict__.update(json_format.__dict__)
    shim.MessageToJson = message_to_json
    local_connection.json_format = shim


def name_of(value):
    return getattr(value, "name", str(value))


def steps_of(history):
    """The conversation's steps, each in its last state (the history holds every update of a
    step). A tool call the hook denied is a step in ERROR whose error holds the hook's reason;
    the SDK streams no ToolCall chunk for it."""
    last = {}
    for step in history:
        last[(step.trajectory_id, step.step_index)] = step
    steps = []
    for step in last.values():
        entry = {"index": step.step_index, "type": name_of(step.type),
                 "status": name_of(step.status)}
        if step.error:
            entry["error"] = step.error
        if step.tool_calls:
            entry["tool_calls"] = [{"name": call.name, "args": call.args}
                                   for call in step.tool_calls]
        steps.append(entry)
    return steps


async def converse(args):
    from google.antigravity import Agent, GeminiAPIEndpoint, LocalAgentConfig, policy, types

    home = os.environ["HOME"]
    endpoint = GeminiAPIEndpoint(base_url=args.base_url, api_key="fake")
    config = LocalAgentConfig(
        workspaces=[os.path.abspath(args.workspace)],
        # The default policy refuses run_command in the SDK before any hook could run; with
        # allow_all, hooks.json is the only thing that can stop a command.
        policies=[policy.allow_all()],
        models=[types.ModelTarget(name=args.model, types=[types.ModelType.TEXT],
                                  endpoint=endpoint)],
        capabilities=types.CapabilitiesConfig(
            # The terminal and the local file tools, which Torii's hook guards; nothing that
            # reaches the network.
            enabled_tools=[
                types.BuiltinTools.RUN_COMMAND,
                types.BuiltinTools.VIEW_FILE,
                types.BuiltinTools.CREATE_FILE,
                types.BuiltinTools.EDIT_FILE,
                types.BuiltinTools.LIST_DIR,
                types.BuiltinTools.FIND_FILE,
                types.BuiltinTools.SEARCH_DIR,
            ],
            enable_subagents=False,
        ),
        # The stand-in answers at once or not at all: fail fast rather than retry until the
        # timeout, and a model that keeps calling tools stops after a few turns.
        retry_config=types.RetryConfig(
            api_retry=types.ModelAPIRetryConfig(max_retries=0),
            model_output_retry=types.ModelOutputRetryConfig(max_retries=0),
        ),
        budget_config=types.BudgetConfig(max_model_calls=args.max_model_calls),
        app_data_dir=os.path.join(home, ".gemini", "antigravity"),
        save_dir=os.path.join(home, ".gemini", "antigravity-sdk-save"),
    )
    async with Agent(config) as agent:
        response = await agent.chat(args.prompt)
        chunks = await response.resolve()
        return {
            "completed": True,
            "text": "".join(chunk.text for chunk in chunks if isinstance(chunk, types.Text)),
            "tool_calls": [{"name": chunk.name, "args": chunk.args}
                           for chunk in chunks if isinstance(chunk, types.ToolCall)],
            "steps": steps_of(agent.conversation.history),
            "stop_reason": name_of(response.stop_reason),
        }


def kill_children():
    """SIGKILL this process's children (the harness), when the SDK could not stop them."""
    me = str(os.getpid())
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % pid) as stat:
                parent = stat.read().rsplit(")", 1)[1].split()[1]
        except OSError:
            continue
        if parent == me:
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass


def emit(result, status):
    sys.stdout.write(json.dumps(result, default=str) + "\n")
    sys.stdout.flush()
    return status


def main():
    args = parse_args()
    # For the harness: the same endpoint, should any of its requests not use the model list.
    os.environ["GOOGLE_GEMINI_BASE_URL"] = args.base_url
    os.environ["GEMINI_API_KEY"] = "fake"
    started = time.monotonic()

    def backstop():
        kill_children()
        emit({"completed": False, "error": "teardown hung", "seconds": round(
            time.monotonic() - started, 1)}, 124)
        os._exit(124)

    timer = threading.Timer(args.timeout + TEARDOWN_GRACE, backstop)
    timer.daemon = True
    timer.start()

    try:
        from importlib.metadata import version
        sdk = version("google-antigravity")
        if sdk != PINNED_SDK:
            print("antigravity_sdk_driver: google-antigravity %s, checked with %s only"
                  % (sdk, PINNED_SDK), file=sys.stderr)
        if not args.no_hooks_extension:
            inject_hooks_extension()
        result = asyncio.run(asyncio.wait_for(converse(args), args.timeout))
        status = 0
    except (asyncio.TimeoutError, TimeoutError):
        result, status = {"completed": False, "error": "timed out"}, 124
    except Exception as error:  # pylint: disable=broad-except
        result, status = {"completed": False, "error": "%s: %s" % (type(error).__name__, error)}, 1
    timer.cancel()
    result["seconds"] = round(time.monotonic() - started, 1)
    return emit(result, status)


if __name__ == "__main__":
    sys.exit(main())
