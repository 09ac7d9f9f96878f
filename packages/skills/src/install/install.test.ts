import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, readdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ModerationScanner, ScanReport, SkillScanner } from "../scanning/types.js";
import { installSkillArchive, type InstallOptions } from "./install.js";
import {
  cleanScanner,
  expectInstallRejected,
  rejection,
  sandboxOptions,
  useInstallSandbox,
} from "../../test/support/install/install-harness.js";
import { skillMd, writeZip, type FixtureEntry } from "../../test/support/install/zip-fixtures.js";

const box = useInstallSandbox("install-archive-");
const options = (extra: Partial<InstallOptions> = {}): InstallOptions => sandboxOptions(box, extra);
const expectRejected = (
  p: Promise<unknown>,
  code: Parameters<typeof expectInstallRejected>[2],
  message: string | RegExp,
) => expectInstallRejected(box, p, code, message);

const skill = (folder: string, name = folder, extra: FixtureEntry[] = []): FixtureEntry[] => [
  { name: `${folder}/SKILL.md`, data: skillMd(name) },
  ...extra,
];

describe("installSkillArchive", () => {
  it("installs a foldered archive under the custom root with sandbox-readable modes", async () => {
    await writeZip(
      box.zip,
      skill("pdf-tools", "pdf-tools", [
        { name: "pdf-tools/scripts/run.sh", data: "#!/bin/sh\necho ok\n", mode: 0o100700 },
        { name: "pdf-tools/references/guide.md", data: "# Guide\n", mode: 0o100600 },
      ]),
    );
    const result = await installSkillArchive(box.zip, options());
    expect(result.name).toBe("pdf-tools");
    expect(result.message).toBe("Skill 'pdf-tools' installed successfully");
    expect(result.skillDir).toBe(path.join(box.customRoot, "pdf-tools"));
    expect(result.scan?.decision).toBe("allow");
    expect(await readFile(path.join(result.skillDir, "SKILL.md"), "utf8")).toBe(skillMd("pdf-tools"));
    expect((await stat(result.skillDir)).mode & 0o777).toBe(0o755);
    expect((await stat(path.join(result.skillDir, "references"))).mode & 0o777).toBe(0o755);
    expect((await stat(path.join(result.skillDir, "references/guide.md"))).mode & 0o777).toBe(0o644);
    expect((await stat(path.join(result.skillDir, "scripts/run.sh"))).mode & 0o777).toBe(0o755);
    expect(await readdir(box.customRoot)).toEqual(["pdf-tools"]);
    expect(await readdir(box.tempDir)).toEqual([]);
  });

  it("installs a flat archive", async () => {
    await writeZip(box.zip, [
      { name: "SKILL.md", data: skillMd("flat-skill") },
      { name: "notes.txt", data: "n" },
    ]);
    const result = await installSkillArchive(box.zip, options());
    expect((await readdir(result.skillDir)).sort()).toEqual(["SKILL.md", "notes.txt"]);
  });

  it("ignores __MACOSX and top-level dot entries when finding the root", async () => {
    await writeZip(box.zip, [
      ...skill("mac-skill"),
      { name: "__MACOSX/mac-skill/._SKILL.md", data: "resource fork" },
      { name: ".DS_Store", data: "finder" },
    ]);
    const result = await installSkillArchive(box.zip, options());
    expect(await readdir(result.skillDir)).toEqual(["SKILL.md"]);
  });

  it("names the install folder after the frontmatter, not the archive folder", async () => {
    await writeZip(box.zip, skill("Some Folder v2", "real-name"));
    const result = await installSkillArchive(box.zip, options());
    expect(result.name).toBe("real-name");
    expect(await readdir(box.customRoot)).toEqual(["real-name"]);
  });

  it("reports a missing file", async () => {
    await expectRejected(installSkillArchive(box.zip, options()), "FILE_NOT_FOUND", `Skill file not found: ${box.zip}`);
  });

  it("reports a directory", async () => {
    await mkdir(box.zip);
    await expectRejected(installSkillArchive(box.zip, options()), "INVALID_PATH", `Path is not a file: ${box.zip}`);
  });

  it("requires the exact .skill extension", async () => {
    const other = path.join(box.dir, "upload.zip");
    await writeZip(other, skill("x-skill"));
    await expectRejected(installSkillArchive(other, options()), "ARCHIVE_INVALID", "File must have .skill extension");
  });

  it("reports a file that is not a zip", async () => {
    await writeFile(box.zip, "plain text, no central directory anywhere in here at all");
    await expectRejected(installSkillArchive(box.zip, options()), "ARCHIVE_INVALID", "File is not a valid ZIP archive");
  });

  it("rejects an archive with only ignored entries as empty", async () => {
    await writeZip(box.zip, [
      { name: "__MACOSX/x", data: "x" },
      { name: ".hidden", data: "h" },
    ]);
    await expectRejected(installSkillArchive(box.zip, options()), "ARCHIVE_INVALID", "Skill archive is empty");
  });

  it("reports the validator's message for an invalid skill", async () => {
    await writeZip(box.zip, [{ name: "s/README.md", data: "no skill here" }]);
    await expectRejected(installSkillArchive(box.zip, options()), "SKILL_INVALID", "Invalid skill: SKILL.md not found");
    await writeZip(box.zip, [{ name: "s/SKILL.md", data: "---\nname: Bad_Name\ndescription: d\n---\n" }]);
    await expectRejected(
      installSkillArchive(box.zip, options()),
      "SKILL_INVALID",
      "Invalid skill: Name 'Bad_Name' should be hyphen-case (lowercase letters, digits, and hyphens only)",
    );
  });

  it("refuses a name that is taken and leaves the existing skill alone", async () => {
    await mkdir(path.join(box.customRoot, "taken"), { recursive: true });
    await writeFile(path.join(box.customRoot, "taken", "SKILL.md"), "original");
    await writeZip(box.zip, skill("taken"));
    const err = await rejection(installSkillArchive(box.zip, options()));
    expect(err.code).toBe("SKILL_ALREADY_EXISTS");
    expect(err.message).toBe("Skill 'taken' already exists");
    expect(await readFile(path.join(box.customRoot, "taken", "SKILL.md"), "utf8")).toBe("original");
    expect(await readdir(box.customRoot)).toEqual(["taken"]);
  });

  it("lets exactly one of two concurrent installs of the same name win", async () => {
    await writeZip(box.zip, skill("racer"));
    const second = path.join(box.dir, "second.skill");
    await copyFile(box.zip, second);
    // Both installs pass the existence check before either commits.
    let arrived = 0;
    let release!: () => void;
    const bothScanned = new Promise<void>((resolve) => (release = resolve));
    const gate = async (): Promise<void> => {
      arrived += 1;
      if (arrived === 2) release();
      await bothScanned;
    };
    const results = await Promise.allSettled([
      installSkillArchive(box.zip, options({ staticScanner: cleanScanner(gate) })),
      installSkillArchive(second, options({ staticScanner: cleanScanner(gate) })),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(rejected).toHaveLength(1);
    expect(rejected[0]?.reason).toMatchObject({
      code: "SKILL_ALREADY_EXISTS",
      message: "Skill 'racer' already exists",
    });
    expect(await readdir(box.customRoot)).toEqual(["racer"]);
    expect(await readFile(path.join(box.customRoot, "racer", "SKILL.md"), "utf8")).toBe(skillMd("racer"));
    expect(await readdir(box.tempDir)).toEqual([]);
  });

  it("leaves nothing behind when the content scan blocks", async () => {
    await writeZip(box.zip, skill("blocked"));
    const scanner: SkillScanner = {
      id: "fake-critical",
      async scanDirectory(): Promise<ScanReport> {
        const finding = {
          ruleId: "shell-reverse-shell",
          severity: "CRITICAL" as const,
          file: "SKILL.md",
          line: 1,
          message: "Reverse shell.",
          remediation: "Remove it.",
          evidence: null,
        };
        return { findings: [finding], blocked: true, scannerErrors: [] };
      },
    };
    await expectRejected(
      installSkillArchive(box.zip, options({ staticScanner: scanner })),
      "SECURITY_BLOCKED",
      /^Static security scan blocked skill 'blocked': /,
    );
  });

  it("skips the static scans but still moderates when scan is false", async () => {
    await writeZip(box.zip, skill("unscanned"));
    const scanner: SkillScanner = {
      id: "fake-throws",
      scanDirectory: () => Promise.reject(new Error("must not be called")),
    };
    const moderated: string[] = [];
    const moderation: ModerationScanner = {
      id: "fake-moderator",
      async moderate(input) {
        moderated.push(input.location);
        return { decision: "allow", reason: "fine" };
      },
    };
    const result = await installSkillArchive(box.zip, options({ scan: false, staticScanner: scanner, moderation }));
    expect(result.scan).toMatchObject({ decision: "allow", findings: [] });
    expect(moderated).toEqual(["unscanned/SKILL.md"]);
  });

  it("leaves nothing behind when moderation blocks", async () => {
    await writeZip(
      box.zip,
      skill("moderated", "moderated", [{ name: "moderated/scripts/run.sh", data: "#!/bin/sh\necho hi\n" }]),
    );
    const moderation: ModerationScanner = {
      id: "fake-moderator",
      async moderate(input) {
        return input.executable ? { decision: "warn", reason: "suspicious" } : { decision: "allow", reason: "fine" };
      },
    };
    await expectRejected(
      installSkillArchive(box.zip, options({ moderation })),
      "SECURITY_BLOCKED",
      "Security scan rejected executable moderated/scripts/run.sh: suspicious",
    );
  });

  it("stops when the signal is aborted and leaves nothing behind", async () => {
    await writeZip(box.zip, skill("aborted"));
    const controller = new AbortController();
    controller.abort();
    const err: unknown = await installSkillArchive(box.zip, options({ signal: controller.signal })).catch(
      (e: unknown) => e,
    );
    expect((err as Error).name).toBe("AbortError");
    expect(existsSync(box.customRoot) ? await readdir(box.customRoot) : []).toEqual([]);
    expect(existsSync(box.tempDir) ? await readdir(box.tempDir) : []).toEqual([]);
  });
});
