// Drives Torii with the official TypeScript MCP SDK, which checks every structured tool result
// against the tool's declared outputSchema (as the Inspectors, opencode and Gemini CLI do).
// Usage: node typescript_sdk_client.mjs <node_modules> <torii> <config root> <PATH> <cwd>
import { createRequire } from "node:module";
import { join } from "node:path";

const [modules, torii, root, path, cwd] = process.argv.slice(2);
const require = createRequire(join(modules, "noop.js"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

const transport = new StdioClientTransport({
  command: torii,
  args: [],
  env: { TORII_CONFIG_DIR: root, TORII_NO_GUI: "1", PATH: path, HOME: process.env.HOME ?? "/" },
  cwd,
  stderr: "inherit",
});
const client = new Client({ name: "torii-ts-test", version: "1.0.0" });
await client.connect(transport);
const { tools } = await client.listTools();
console.log(`tools: ${tools.map((tool) => tool.name).join(",")}`);

// Each call either returns a result that matched its schema or throws the SDK's error.
const calls = [
  ["allowed", "cli", { args: ["hello"] }],
  ["denied", "cli", { args: ["bad"] }],
  ["unresolved", "cli", { args: ["other"] }],
  ["gemini field", "cli", { args: ["hello"], wait_for_previous: true }],
  ["policy", "torii_policy", { provider: "cli" }],
  ["policy failure", "torii_policy", { provider: "broken" }],
  ["call failure", "broken", { args: ["x"] }],
];
for (const [label, name, args] of calls) {
  try {
    const result = await client.callTool({ name, arguments: args });
    const summary = result.structuredContent.error ?? result.structuredContent.decision?.source;
    console.log(`ok: ${label}: isError=${result.isError === true} ${summary ?? ""}`);
  } catch (error) {
    console.log(`FAILED: ${label}: ${error.message}`);
  }
}
await client.close();
