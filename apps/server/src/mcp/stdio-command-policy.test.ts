import { describe, expect, it } from "vitest";
import { STDIO_ALLOWLIST_ENV, checkStdioCommand } from "./stdio-command-policy.js";

const check =
  (entry: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
  () =>
    checkStdioCommand("s", entry, env);

describe("stdio commands written through the API", () => {
  it("allows npx and uvx with package arguments", () => {
    expect(
      check({ command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/data", "-e"] }),
    ).not.toThrow();
    expect(check({ command: "uvx", args: ["mcp-server-fetch"] })).not.toThrow();
  });

  it("refuses paths, shell metacharacters and commands off the allowlist, unless the environment extends it", () => {
    for (const command of ["/bin/sh", "npx;id", "npx -y", "$(id)", "a|b"])
      expect(check({ command })).toThrow(
        "MCP server 's' command must be a single executable name; put parameters in args instead.",
      );
    expect(check({ command: "node" })).toThrow(
      "MCP server 's' uses disallowed stdio command 'node'. Allowed commands: npx, uvx. Configure DEER_FLOW_MCP_STDIO_COMMAND_ALLOWLIST to extend this list.",
    );
    expect(check({ command: "node", args: ["server.js"] }, { [STDIO_ALLOWLIST_ENV]: "node, python" })).not.toThrow();
  });

  it("refuses eval-style flags (for npx/uvx only before the package) and code-injecting variables", () => {
    expect(check({ command: "npx", args: ["-c", "id"] })).toThrow(
      "MCP server 's' passes '-c' to 'npx', which would run arbitrary code. Point the server at a package or module instead.",
    );
    expect(check({ command: "node", args: ["--eval=1"] }, { [STDIO_ALLOWLIST_ENV]: "node" })).toThrow(
      "passes '--eval'",
    );
    expect(check({ command: "npx", args: ["pkg", "--", "-c"] })).not.toThrow();
    expect(check({ command: "npx", args: ["pkg"], env: { NODE_OPTIONS: "--require x" } })).toThrow(
      "MCP server 's' sets environment variable 'NODE_OPTIONS', which would run arbitrary code at process startup.",
    );
    expect(check({ command: "npx", args: ["pkg"], env: { ld_preload: "x.so" } })).toThrow("'ld_preload'");
  });
});
