import { describe, expect, it } from "vitest";
import { configTexts } from "../../test/support/config-text.js";

const { load: loadText, problems } = configTexts();
const load = async (yaml: string) => (await loadText(yaml)).config;

describe("config: read_before_write and guardrails", () => {
  it("defaults: the read-before-write gate on, guardrails off, fail_closed, no approvals", async () => {
    const c = await load("agent: { name: DeerFlow }\n");
    expect(c.readBeforeWrite).toEqual({ enabled: true });
    expect(c.guardrails).toEqual({ enabled: false, failClosed: true, requireApproval: [] });
  });

  it("reads DeerFlow's keys and require_approval; DeerFlow's class path names the built-in provider", async () => {
    const c = await load(`
read_before_write: { enabled: false }
guardrails:
  enabled: true
  fail_closed: false
  passport: agent-1
  provider:
    use: deerflow.guardrails.builtin:AllowlistProvider
    config: { denied_tools: [bash, write_file] }
  require_approval: [str_replace]
`);
    expect(c.readBeforeWrite).toEqual({ enabled: false });
    expect(c.guardrails).toEqual({
      enabled: true,
      failClosed: false,
      passport: "agent-1",
      provider: { kind: "allowlist", deniedTools: ["bash", "write_file"] },
      requireApproval: ["str_replace"],
    });
  });

  it("keeps a plugin's config as written", async () => {
    const c = await load(
      "guardrails: { enabled: true, provider: { use: './policy.js:Policy', config: { max_calls: 3 } } }\n",
    );
    expect(c.guardrails?.provider).toEqual({ kind: "plugin", use: "./policy.js:Policy", options: { max_calls: 3 } });
  });

  it("names the key path of bad values", async () => {
    expect(await problems("guardrails: { enabled: true }\n")).toContain(
      "guardrails.provider: is required when guardrails.enabled is true",
    );
    expect(
      await problems("guardrails: { enabled: true, provider: { use: allowlist, config: { denied: [bash] } } }\n"),
    ).toContain(
      "guardrails.provider.config.denied: is not a setting of the allowlist provider (allowed_tools, denied_tools)",
    );
    expect(
      await problems("guardrails: { enabled: true, provider: { use: allowlist, config: { denied_tools: bash } } }\n"),
    ).toContain("guardrails.provider.config.denied_tools: must be a list of tool names");
    expect(await problems("guardrails: { enabled: true, provider: { use: nonsense } }\n")).toContain(
      'guardrails.provider.use: must be "allowlist" or "<module>:<export>", got "nonsense"',
    );
    expect(await problems("guardrails: { require_approval: bash }\n")).toContain("guardrails.require_approval");
    expect(await problems("read_before_write: { enabled: 1 }\n")).toContain("read_before_write.enabled");
  });
});
