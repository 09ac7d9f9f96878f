import { afterEach, describe, expect, it } from "vitest";
import { describeConfig, loadConfig, maskSecret, maskUrl } from "./index.js";
import { tempDirs, writeFiles } from "../../test/support/temp-dir.js";

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

describe("describeConfig", () => {
  it("explains the embedded defaults", async () => {
    const dir = await tmp.make();
    const lines = describeConfig(await loadConfig({ cwd: dir, env: {} }));
    expect(lines[0]).toBe("config: no config.yaml found; using embedded defaults");
    expect(lines).toContain(
      'model "demo" (default): the offline demo model (canned answers, no provider) [default (no models configured: the offline demo model)]',
    );
    expect(lines).toContain("stream bridge: memory (this process only) [embedded default (one instance)]");
    expect(
      lines.some((l) => l.startsWith(`checkpointer: file ${dir}/.deerflow-data/checkpoints.sqlite [embedded default`)),
    ).toBe(true);
    expect(
      lines.some((l) => l.startsWith("sandbox: local (per-thread folders under") && l.includes("host bash disabled")),
    ).toBe(true);
    expect(lines.some((l) => l.startsWith("skills: root") && l.includes("(missing: no skills)"))).toBe(true);
  });

  it("masks API keys and URL passwords", async () => {
    const dir = await tmp.make();
    const apiKey = "sk-proj-abcdefghijklmnopqrstuvwxyz0123";
    const serverKey = "server-key-very-secret-value-42";
    await writeFiles(dir, {
      "config.yaml": [
        "server:",
        `  api_keys: ["${serverKey}", "short"]`,
        "models:",
        "  - name: gpt",
        "    model: gpt-4o",
        `    api_key: ${apiKey}`,
      ].join("\n"),
    });
    const env = {
      REDIS_URL: "redis://:r3dis-pass@redis:6379/0",
      DATABASE_URL: "postgres://deer:pg-pass@db:5432/deerflow",
    };
    const text = describeConfig(await loadConfig({ cwd: dir, env })).join("\n");
    for (const secret of [apiKey, serverKey, "short", "r3dis-pass", "pg-pass"]) expect(text).not.toContain(secret);
    expect(text).toContain("api key ****0123");
    expect(text).toContain("stream bridge: redis redis://:****@redis:6379/0 [environment (REDIS_URL is set)]");
    expect(text).toContain(
      "run store: postgres postgres://deer:****@db:5432/deerflow [environment (DATABASE_URL is set)]",
    );
    expect(text).toContain("2 API key(s) ****e-42, ****");
  });
});

describe("maskSecret", () => {
  it("keeps only the last 4 characters of long secrets", () => {
    expect(maskSecret("sk-1234567890abcdefghij")).toBe("****ghij");
    expect(maskSecret("short-secret")).toBe("****");
    expect(maskSecret("")).toBe("(empty)");
  });
});

describe("maskUrl", () => {
  it("masks the password and leaves the rest", () => {
    expect(maskUrl("postgres://u:p@h:5432/db")).toBe("postgres://u:****@h:5432/db");
    expect(maskUrl("redis://localhost:6379")).toBe("redis://localhost:6379");
    expect(maskUrl("not a url with secret")).toBe("****");
  });
});
