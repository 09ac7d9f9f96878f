import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SkillScanner } from "../scanning/types.js";
import { CustomSkillStore } from "./custom-skill-store.js";
import {
  makeTempRoots,
  MarkerScanner,
  rejectionOf,
  ScriptedModeration,
  skillMd,
  type TempRoots,
} from "../../test/support/custom/fixtures.js";

let roots: TempRoots;
const agent = { author: "agent", threadId: "t-1" } as const;
const human = { author: "human" } as const;

beforeEach(async () => {
  roots = await makeTempRoots("store-scan-");
});
afterEach(async () => {
  await roots.cleanup();
});

function storeWith(options: {
  staticScanner?: SkillScanner | null;
  moderation?: ScriptedModeration;
}): CustomSkillStore {
  return new CustomSkillStore({ customRoot: roots.customRoot, ...options });
}

describe("CustomSkillStore static scanning", () => {
  it("leaves the skill and its history untouched when the static scan blocks an edit", async () => {
    const store = storeWith({ staticScanner: new MarkerScanner("EVIL") });
    await store.create("my-skill", skillMd("my-skill"), agent);
    const err = await rejectionOf(store.update("my-skill", skillMd("my-skill", "d", "EVIL\n"), agent));
    expect(err.code).toBe("SECURITY_BLOCKED");
    expect(err.message).toMatch(
      /^Static security scan blocked skill 'my-skill': test-marker \(CRITICAL\) at SKILL\.md:1: Marker found\./,
    );
    expect(await store.read("my-skill")).toBe(skillMd("my-skill"));
    expect(await store.history("my-skill")).toHaveLength(1);
  });

  it("blocks a create with the built-in scanner (private key material) and writes nothing", async () => {
    const store = storeWith({});
    const key = "-----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY-----\n";
    const err = await rejectionOf(store.create("my-skill", skillMd("my-skill", "d", key), agent));
    expect(err.code).toBe("SECURITY_BLOCKED");
    expect(err.message).toContain("secret-private-key (CRITICAL)");
    expect(existsSync(path.join(roots.customRoot, "my-skill"))).toBe(false);
    expect(existsSync(path.join(roots.customRoot, ".history", "my-skill.jsonl"))).toBe(false);
  });

  it("scans a write_file candidate: a copy of the skill with the new file overlaid", async () => {
    const scanner = new MarkerScanner("EVIL");
    const store = storeWith({ staticScanner: scanner });
    await store.create("my-skill", skillMd("my-skill"), agent);
    await store.writeFile("my-skill", "references/notes.md", "fine", agent);
    const err = await rejectionOf(store.writeFile("my-skill", "scripts/run.sh", "EVIL", agent));
    expect(err.message).toContain("at scripts/run.sh:1");
    expect(existsSync(path.join(roots.customRoot, "my-skill", "scripts"))).toBe(false);
    expect((await store.history("my-skill")).map((r) => r.action)).toEqual(["create", "write_file"]);
  });

  it("reports a failing static scanner as SECURITY_SCAN_FAILED", async () => {
    const broken: SkillScanner = { id: "broken", scanDirectory: () => Promise.reject(new Error("analyzer crashed")) };
    const err = await rejectionOf(storeWith({ staticScanner: broken }).create("my-skill", skillMd("my-skill"), agent));
    expect([err.code, err.message]).toEqual([
      "SECURITY_SCAN_FAILED",
      "Static security scan failed for skill 'my-skill': analyzer crashed",
    ]);
  });

  it("records non-blocking static findings in the history record", async () => {
    const store = storeWith({ staticScanner: new MarkerScanner("EVIL") });
    const record = await store.create("my-skill", skillMd("my-skill", "d", "see http://example.org\n"), agent);
    expect(record.scanner.staticFindings?.map((f) => f.ruleId)).toEqual(["network-cleartext-http"]);
    const raw = JSON.parse(
      (await readFile(path.join(roots.customRoot, ".history", "my-skill.jsonl"), "utf8")).trim(),
    ) as { scanner: Record<string, unknown> };
    expect(raw.scanner["static_findings"]).toEqual([
      expect.objectContaining({ rule_id: "network-cleartext-http", severity: "MEDIUM" }),
    ]);
  });

  it("omits static findings when static scanning is off", async () => {
    const record = await storeWith({ staticScanner: null }).create("my-skill", skillMd("my-skill"), agent);
    expect(record.scanner).toEqual({ decision: "allow", reason: "No moderation scanner configured." });
  });
});

describe("CustomSkillStore moderation", () => {
  it("blocks a create with DeerFlow's write message", async () => {
    const store = storeWith({
      moderation: new ScriptedModeration(() => ({ decision: "block", reason: "Prompt injection." })),
    });
    const err = await rejectionOf(store.create("my-skill", skillMd("my-skill"), agent));
    expect([err.code, err.message]).toEqual(["SECURITY_BLOCKED", "Security scan blocked the write: Prompt injection."]);
    expect(existsSync(path.join(roots.customRoot, "my-skill"))).toBe(false);
  });

  it("words a blocked human edit as DeerFlow's HTTP route does", async () => {
    let verdict: "allow" | "block" = "allow";
    const store = storeWith({ moderation: new ScriptedModeration(() => ({ decision: verdict, reason: "Nope." })) });
    await store.create("my-skill", skillMd("my-skill"), agent);
    verdict = "block";
    expect((await rejectionOf(store.update("my-skill", skillMd("my-skill", "B."), human))).message).toBe(
      "Security scan blocked the edit: Nope.",
    );
    expect((await rejectionOf(store.update("my-skill", skillMd("my-skill", "B."), agent))).message).toBe(
      "Security scan blocked the write: Nope.",
    );
  });

  it("records a warn verdict for SKILL.md and allows the change", async () => {
    const store = storeWith({
      moderation: new ScriptedModeration(() => ({ decision: "warn", reason: "External API." })),
    });
    const record = await store.create("my-skill", skillMd("my-skill"), agent);
    expect(record.scanner).toMatchObject({ decision: "warn", reason: "External API." });
  });

  it("rejects a warn verdict for content under scripts/", async () => {
    const moderation = new ScriptedModeration(() => ({ decision: "warn", reason: "Calls curl." }));
    const store = storeWith({ moderation });
    await storeWith({}).create("my-skill", skillMd("my-skill"), agent);
    const err = await rejectionOf(store.writeFile("my-skill", "scripts/fetch.sh", "curl https://example.org", agent));
    expect([err.code, err.message]).toEqual([
      "SECURITY_BLOCKED",
      "Security scan rejected executable content: Calls curl.",
    ]);
    expect(moderation.calls.at(-1)).toMatchObject({ location: "my-skill/scripts/fetch.sh", executable: true });
    expect(existsSync(path.join(roots.customRoot, "my-skill", "scripts", "fetch.sh"))).toBe(false);
  });

  it("accepts a warn verdict for a reference file and moderates it as non-executable", async () => {
    await storeWith({}).create("my-skill", skillMd("my-skill"), agent);
    const moderation = new ScriptedModeration(() => ({ decision: "warn", reason: "Mentions an API." }));
    const record = await storeWith({ moderation }).writeFile("my-skill", "references/api.md", "GET /v1", agent);
    expect(record.scanner).toMatchObject({ decision: "warn", reason: "Mentions an API." });
    expect(moderation.calls.at(-1)).toMatchObject({
      location: "my-skill/references/api.md",
      executable: false,
      content: "GET /v1",
    });
  });

  it("moderates only the changed file, with the candidate's static findings as context", async () => {
    const moderation = new ScriptedModeration();
    const store = storeWith({ staticScanner: new MarkerScanner("EVIL"), moderation });
    await store.create("my-skill", skillMd("my-skill", "d", "http://example.org\n"), agent);
    expect(moderation.calls).toHaveLength(1);
    expect(moderation.calls[0]).toMatchObject({ location: "my-skill/SKILL.md", executable: false });
    expect(moderation.calls[0]?.staticFindings?.map((f) => f.ruleId)).toEqual(["network-cleartext-http"]);
  });

  it("does not call the moderator after a static block", async () => {
    const moderation = new ScriptedModeration();
    await rejectionOf(
      storeWith({ staticScanner: new MarkerScanner("EVIL"), moderation }).create(
        "my-skill",
        skillMd("my-skill", "d", "EVIL"),
        agent,
      ),
    );
    expect(moderation.calls).toHaveLength(0);
  });
});
