import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { SkillsError } from "../errors.js";
import { ExtensionsConfigStore, isSkillEnabled, parseExtensionsConfig } from "./extensions-config.js";
import { makeTempDir, recordingLogger } from "../../test/support/catalog/fixtures.js";

let tmp: string;
let file: string;
beforeEach(async () => {
  tmp = await makeTempDir();
  file = path.join(tmp, "extensions_config.json");
});
afterEach(async () => {
  vi.restoreAllMocks();
  await fs.rm(tmp, { recursive: true, force: true });
});

async function caught(p: Promise<unknown>): Promise<SkillsError> {
  try {
    await p;
  } catch (err) {
    if (SkillsError.isInstance(err)) return err;
    throw err;
  }
  throw new Error("expected a rejection");
}

describe("parseExtensionsConfig", () => {
  it("reads explicit states and defaults the rest to enabled", () => {
    const snap = parseExtensionsConfig(
      JSON.stringify({ skills: { a: { enabled: false }, b: { enabled: true }, c: {} } }),
    );
    expect([
      isSkillEnabled(snap, "a"),
      isSkillEnabled(snap, "b"),
      isSkillEnabled(snap, "c"),
      isSkillEnabled(snap, "zzz"),
    ]).toEqual([false, true, true, true]);
  });

  it("treats whitespace-only text as an empty document", () => {
    expect(parseExtensionsConfig("  \n").skillStates.size).toBe(0);
  });

  it("rejects malformed JSON with the parse error in the message", () => {
    expect(() => parseExtensionsConfig("{ nope")).toThrowError(/^extensions_config\.json is not valid JSON: .+/);
  });

  it("rejects a non-boolean enabled with the offending path", () => {
    const err = (() => {
      try {
        parseExtensionsConfig(JSON.stringify({ skills: { a: { enabled: "no" } } }));
      } catch (e) {
        return e as SkillsError;
      }
      return undefined;
    })();
    expect(err?.code).toBe("CONFIG_INVALID");
    expect(err?.message).toContain("/skills/a/enabled must be boolean");
  });

  it("rejects a skills value that is not an object", () => {
    expect(() => parseExtensionsConfig(JSON.stringify({ skills: ["a"] }))).toThrowError(/skills must be object/);
  });

  it("rejects a top-level array", () => {
    expect(() => parseExtensionsConfig("[]")).toThrowError(/must be object/);
  });
});

describe("ExtensionsConfigStore", () => {
  it("treats a missing file as everything enabled", async () => {
    const snap = await new ExtensionsConfigStore(file).read();
    expect(snap.exists).toBe(false);
    expect(isSkillEnabled(snap, "anything")).toBe(true);
  });

  it("throws CONFIG_INVALID for malformed JSON without leaking the host path", async () => {
    await fs.writeFile(file, '{ "skills": ');
    const err = await caught(new ExtensionsConfigStore(file).read());
    expect(err.code).toBe("CONFIG_INVALID");
    expect(err.message).toMatch(/not valid JSON/);
    expect(err.message).not.toContain(tmp);
  });

  it("logs and treats a malformed file as empty when reading leniently", async () => {
    await fs.writeFile(file, "{ broken");
    const logger = recordingLogger();
    const snap = await new ExtensionsConfigStore(file, { logger }).readLenient();
    expect(snap.skillStates.size).toBe(0);
    expect(logger.calls).toEqual([expect.objectContaining({ level: "warn" })]);
  });

  it("creates the file and its directory on the first toggle", async () => {
    const nested = path.join(tmp, "conf", "extensions_config.json");
    await new ExtensionsConfigStore(nested).setSkillEnabled("deep-research", false);
    expect(JSON.parse(await fs.readFile(nested, "utf8"))).toEqual({ skills: { "deep-research": { enabled: false } } });
  });

  it("keeps unknown top-level and per-skill keys", async () => {
    const original = {
      mcpServers: { github: { command: "gh", env: { TOKEN: "$GITHUB_TOKEN" } } },
      mcpInterceptors: [{ use: "x" }],
      skills: { a: { enabled: true, note: "keep me" }, b: { enabled: false } },
      middlewares: ["m1"],
    };
    await fs.writeFile(file, JSON.stringify(original));
    await new ExtensionsConfigStore(file).setSkillEnabled("a", false);
    expect(JSON.parse(await fs.readFile(file, "utf8"))).toEqual({
      ...original,
      skills: { a: { enabled: false, note: "keep me" }, b: { enabled: false } },
    });
  });

  it("lands 50 concurrent toggles of different names", async () => {
    await fs.writeFile(file, JSON.stringify({ mcpServers: { keep: {} } }));
    const store = new ExtensionsConfigStore(file);
    const names = Array.from({ length: 50 }, (_, i) => `skill-${i}`);
    await Promise.all(names.map((n, i) => store.setSkillEnabled(n, i % 2 === 0)));
    const snap = await store.read();
    expect(names.map((n) => snap.skillStates.get(n))).toEqual(names.map((_, i) => i % 2 === 0));
    expect(snap.data["mcpServers"]).toEqual({ keep: {} });
    expect((await fs.readdir(tmp)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("serialises two stores on the same file", async () => {
    const a = new ExtensionsConfigStore(file);
    const b = new ExtensionsConfigStore(path.join(tmp, ".", "extensions_config.json"));
    await Promise.all([a.setSkillEnabled("x", false), b.setSkillEnabled("y", false), a.setSkillEnabled("z", false)]);
    expect([...(await a.read()).skillStates.keys()].sort()).toEqual(["x", "y", "z"]);
  });

  it("leaves the old file intact and no temp file when the rename fails mid-write", async () => {
    const before = JSON.stringify({ skills: { a: { enabled: true } } }, null, 2);
    await fs.writeFile(file, before);
    vi.spyOn(fs, "rename").mockRejectedValueOnce(Object.assign(new Error("EIO: simulated crash"), { code: "EIO" }));
    await expect(new ExtensionsConfigStore(file).setSkillEnabled("a", false)).rejects.toThrow("simulated crash");
    expect(await fs.readFile(file, "utf8")).toBe(before);
    expect(await fs.readdir(tmp)).toEqual(["extensions_config.json"]);
  });

  it("keeps the file mode across a rewrite", async () => {
    await fs.writeFile(file, "{}");
    await fs.chmod(file, 0o640);
    await new ExtensionsConfigStore(file).setSkillEnabled("a", true);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o640);
  });

  it("refuses to rewrite a malformed file", async () => {
    await fs.writeFile(file, "{ hand edited");
    const err = await caught(new ExtensionsConfigStore(file).setSkillEnabled("a", false));
    expect(err.code).toBe("CONFIG_INVALID");
    expect(await fs.readFile(file, "utf8")).toBe("{ hand edited");
  });

  it("stores __proto__ as a plain key", async () => {
    const store = new ExtensionsConfigStore(file);
    await store.setSkillEnabled("__proto__", false);
    const raw = await fs.readFile(file, "utf8");
    expect(raw).toContain('"__proto__"');
    expect((await store.read()).skillStates.get("__proto__")).toBe(false);
  });

  it("rejects an empty name", async () => {
    expect((await caught(new ExtensionsConfigStore(file).setSkillEnabled("  ", true))).code).toBe("INVALID_NAME");
  });
});
