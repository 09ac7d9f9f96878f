import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SkillHistory } from "./history.js";
import type { HistoryRecord } from "./history-record.js";
import { makeTempRoots, recordingLogger, type TempRoots } from "../../test/support/custom/fixtures.js";

let roots: TempRoots;

beforeEach(async () => {
  roots = await makeTempRoots("history-");
});
afterEach(async () => {
  await roots.cleanup();
});

const base = {
  action: "edit",
  author: "agent",
  threadId: "thread-1",
  filePath: "SKILL.md",
  prevContent: "old ✓",
  newContent: "new ✓",
  scanner: {
    decision: "warn",
    reason: "Borderline.",
    staticFindings: [
      {
        ruleId: "network-cleartext-http",
        severity: "MEDIUM",
        file: "SKILL.md",
        line: 3,
        message: "m",
        remediation: "r",
        evidence: "http://x",
      },
    ],
  },
} as const satisfies Omit<HistoryRecord, "ts">;

describe("SkillHistory", () => {
  it("writes DeerFlow's snake_case JSONL at <customRoot>/.history/<name>.jsonl", async () => {
    const history = new SkillHistory({ customRoot: roots.customRoot });
    const written = await history.append("my-skill", { ...base, rollbackFromTs: "2026-01-01T00:00:00+00:00" });
    const text = await readFile(path.join(roots.customRoot, ".history", "my-skill.jsonl"), "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(text.split("\n")).toHaveLength(2);
    expect(text).toContain("✓"); // non-ASCII written as-is
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual([
      "ts",
      "action",
      "author",
      "thread_id",
      "file_path",
      "prev_content",
      "new_content",
      "scanner",
      "rollback_from_ts",
    ]);
    expect(json).toMatchObject({
      ts: written.ts,
      thread_id: "thread-1",
      file_path: "SKILL.md",
      prev_content: "old ✓",
      new_content: "new ✓",
      rollback_from_ts: "2026-01-01T00:00:00+00:00",
      scanner: {
        decision: "warn",
        reason: "Borderline.",
        static_findings: [
          {
            rule_id: "network-cleartext-http",
            severity: "MEDIUM",
            file: "SKILL.md",
            line: 3,
            message: "m",
            remediation: "r",
            evidence: "http://x",
          },
        ],
      },
    });
  });

  it("stamps ts as a UTC ISO-8601 time", async () => {
    const record = await new SkillHistory({ customRoot: roots.customRoot }).append("s", base);
    expect(record.ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("reads records back oldest first in the camelCase shape", async () => {
    const history = new SkillHistory({ customRoot: roots.customRoot });
    const first = await history.append("s", { ...base, action: "create", prevContent: null });
    const second = await history.append("s", base);
    expect(await history.read("s")).toEqual([first, second]);
  });

  it("reads records written by DeerFlow (Python time stamps, no static findings)", async () => {
    await mkdir(path.join(roots.customRoot, ".history"), { recursive: true });
    const line =
      '{"ts": "2026-08-22T10:00:00.123456+00:00", "action": "human_delete", "author": "human", "thread_id": null, "file_path": "SKILL.md", "prev_content": "x", "new_content": null, "scanner": {"decision": "allow", "reason": "Deletion requested."}}';
    await writeFile(path.join(roots.customRoot, ".history", "s.jsonl"), `${line}\n`);
    expect(await new SkillHistory({ customRoot: roots.customRoot }).read("s")).toEqual([
      {
        ts: "2026-08-22T10:00:00.123456+00:00",
        action: "human_delete",
        author: "human",
        threadId: null,
        filePath: "SKILL.md",
        prevContent: "x",
        newContent: null,
        scanner: { decision: "allow", reason: "Deletion requested." },
      },
    ]);
  });

  it("skips blank and corrupt lines and logs the corrupt ones", async () => {
    const logger = recordingLogger();
    const history = new SkillHistory({ customRoot: roots.customRoot, logger });
    await history.append("s", base);
    const file = history.file("s");
    await appendFile(file, '\n   \n{not json\n[1,2]\n{"ts":1}\n');
    await history.append("s", { ...base, action: "patch" });
    const records = await history.read("s");
    expect(records.map((r) => r.action)).toEqual(["edit", "patch"]);
    expect(logger.entries.filter((e) => e.level === "warn").map((e) => e.obj["line"])).toEqual([4, 5, 6]);
  });

  it("returns [] and reports no file when there is no history", async () => {
    const history = new SkillHistory({ customRoot: roots.customRoot });
    expect(await history.read("none")).toEqual([]);
    expect(await history.exists("none")).toBe(false);
  });

  it("never interleaves lines under many concurrent appends", async () => {
    const history = new SkillHistory({ customRoot: roots.customRoot });
    const big = "x".repeat(200_000);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => history.append("s", { ...base, newContent: `${i}:${big}` })),
    );
    const records = await history.read("s");
    expect(records).toHaveLength(40);
    expect(new Set(records.map((r) => r.newContent?.split(":")[0]))).toEqual(
      new Set(Array.from({ length: 40 }, (_, i) => String(i))),
    );
  });

  it("refuses a traversal name before touching the disk", async () => {
    await expect(new SkillHistory({ customRoot: roots.customRoot }).append("../../escaped", base)).rejects.toThrow(
      /hyphen-case/,
    );
  });
});
