"""Drive the real `torii` binary with the official Python MCP SDK: a client we did not write.

Usage: python_sdk_client.py TORII_BINARY CONFIG_ROOT PATH
Prints one line per check; exits non-zero on the first failed expectation.
"""
import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp.client.stdio import stdio_client


def expect(condition, message):
    if not condition:
        print(f"FAIL: {message}", flush=True)
        sys.exit(1)
    print(f"ok: {message}", flush=True)


async def main(binary, root, path):
    env = dict(os.environ, TORII_CONFIG_DIR=root, TORII_NO_GUI="1", PATH=path)
    params = StdioServerParameters(command=binary, args=[], env=env)
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            expect(init.server_info.name == "torii", "server identifies as torii")
            expect("torii_policy" in (init.instructions or ""), "instructions mention torii_policy")

            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            expect(sorted(tools) == ["cli", "torii_policy"], f"one tool per provider plus torii_policy: {sorted(tools)}")
            expect(tools["cli"].input_schema["required"] == ["args"], "simple schema requires args")
            expect(tools["cli"].input_schema["additionalProperties"] is False, "no extra fields")
            expect(tools["torii_policy"].annotations.read_only_hint is True, "torii_policy is read-only")

            policy = await session.call_tool("torii_policy", {"provider": "cli"})
            expect(policy.structured_content["accept"] == ["hello"], "torii_policy returns accept")

            allowed = await session.call_tool("cli", {"args": ["hello", "a b", "$(x)"]})
            data = allowed.structured_content
            expect(not allowed.is_error, "allowed call is not an error")
            expect(data["decision"] == {"result": "allow", "source": "rules", "rule": "hello"}, "allowed by rules")
            expect(data["execution"]["exit_code"] == 0, "exit code 0")
            expect(data["execution"]["stdout"] == "hello a b $(x)\n", "argv reached the CLI literally")
            expect(json.loads(allowed.content[0].text) == data, "text content equals structured content")

            denied = await session.call_tool("cli", {"args": ["bad", "thing"]})
            expect(denied.structured_content["decision"]["source"] == "explicit-deny", "explicit deny")
            expect("execution" not in denied.structured_content, "no execution when denied")

            unresolved = await session.call_tool("cli", {"args": ["other"]})
            expect(unresolved.structured_content["decision"]["source"] == "human-deny", "headless unresolved is human-deny")

            try:
                result = await session.call_tool("cli", {"args": []})
                refused = result.is_error
            except MCPError:
                refused = True
            expect(refused, "empty args is refused")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3]))
