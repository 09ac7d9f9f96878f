import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { createSandboxTools } from "./create-sandbox-tools.js";
import { MemorySandbox } from "../../test/support/tools/memory-sandbox.js";

const schemaOf = (t: { schema: unknown }) =>
  t.schema as { properties: Record<string, { default?: unknown }>; required: string[] };

describe("createSandboxTools", () => {
  it("returns DeerFlow's seven tools in order", () => {
    const tools = createSandboxTools({ sandbox: new MemorySandbox() });
    expect(tools.map((t) => t.name)).toEqual(["bash", "ls", "glob", "grep", "read_file", "write_file", "str_replace"]);
  });

  it("gives every tool a leading, optional description parameter", () => {
    for (const t of createSandboxTools({ sandbox: new MemorySandbox() })) {
      const schema = schemaOf(t);
      expect(Object.keys(schema.properties)[0]).toBe("description");
      expect(schema.required).not.toContain("description");
    }
  });

  it("declares DeerFlow's parameters, required fields and defaults", () => {
    const byName = Object.fromEntries(
      createSandboxTools({ sandbox: new MemorySandbox() }).map((t) => [t.name, schemaOf(t)]),
    );
    const shape = Object.fromEntries(
      Object.entries(byName).map(([name, s]) => [
        name,
        {
          params: Object.keys(s.properties),
          required: s.required,
          defaults: Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, v.default])),
        },
      ]),
    );
    expect(shape).toEqual({
      bash: {
        params: ["description", "command"],
        required: ["command"],
        defaults: { description: "", command: undefined },
      },
      ls: { params: ["description", "path"], required: ["path"], defaults: { description: "", path: undefined } },
      glob: {
        params: ["description", "pattern", "path", "include_dirs", "max_results"],
        required: ["pattern", "path"],
        defaults: { description: "", pattern: undefined, path: undefined, include_dirs: false, max_results: 200 },
      },
      grep: {
        params: ["description", "pattern", "path", "glob", "literal", "case_sensitive", "max_results"],
        required: ["pattern", "path"],
        defaults: {
          description: "",
          pattern: undefined,
          path: undefined,
          glob: null,
          literal: false,
          case_sensitive: false,
          max_results: 100,
        },
      },
      read_file: {
        params: ["description", "path", "start_line", "end_line"],
        required: ["path"],
        defaults: { description: "", path: undefined, start_line: null, end_line: null },
      },
      write_file: {
        params: ["description", "path", "content", "append"],
        required: ["path", "content"],
        defaults: { description: "", path: undefined, content: undefined, append: false },
      },
      str_replace: {
        params: ["description", "path", "old_str", "new_str", "replace_all"],
        required: ["path", "old_str", "new_str"],
        defaults: { description: "", path: undefined, old_str: undefined, new_str: undefined, replace_all: false },
      },
    });
  });

  it("mentions the SIZE POLICY in write_file's description", () => {
    const writeFile = createSandboxTools({ sandbox: new MemorySandbox() })[5];
    expect(writeFile.description).toContain("SIZE POLICY");
    expect(writeFile.description).toContain("81920 bytes");
  });

  it("requires exactly one of sandbox and getSandbox", () => {
    expect(() => createSandboxTools({})).toThrow(SandboxError);
    expect(() =>
      createSandboxTools({ sandbox: new MemorySandbox(), getSandbox: async () => new MemorySandbox() }),
    ).toThrow("Sandbox tools need exactly one of `sandbox` or `getSandbox`");
  });

  it("rejects negative limits", () => {
    expect(() => createSandboxTools({ sandbox: new MemorySandbox(), bashOutputMaxChars: -1 })).toThrow(
      /bashOutputMaxChars/,
    );
  });

  it("rejects arguments that do not match the schema", async () => {
    const [bash] = createSandboxTools({ sandbox: new MemorySandbox({ isolated: true }) });
    await expect(bash.invoke({ description: "no command" })).rejects.toThrow(/did not match expected schema/);
  });

  it("resolves the sandbox on every call", async () => {
    let calls = 0;
    const sandbox = new MemorySandbox({ files: { "/mnt/user-data/workspace/a.txt": "A" } });
    const [, , , , readFile] = createSandboxTools({
      getSandbox: async () => {
        calls++;
        return sandbox;
      },
    });
    await readFile.invoke({ path: "/mnt/user-data/workspace/a.txt" });
    await readFile.invoke({ path: "/mnt/user-data/workspace/a.txt" });
    expect(calls).toBe(2);
  });
});
