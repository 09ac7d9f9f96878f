import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { installSkillArchive, type InstallOptions } from "./install.js";
import {
  cleanScanner,
  expectInstallRejected,
  sandboxOptions,
  useInstallSandbox,
} from "../../test/support/install/install-harness.js";
import { patchZipName, skillMd, writeZip, type FixtureEntry } from "../../test/support/install/zip-fixtures.js";

const box = useInstallSandbox("install-hostile-");
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

describe("installSkillArchive (hostile archives)", () => {
  it("blocks a patched ../ member in the preflight", async () => {
    await writeZip(box.zip, skill("slip", "slip", [{ name: "AA/evil.txt", data: "pwned", compress: false }]));
    expect(await patchZipName(box.zip, "AA/evil.txt", "../evil.txt")).toBe(2);
    const err = await expectRejected(
      installSkillArchive(box.zip, options()),
      "SECURITY_BLOCKED",
      /^Static security scan blocked unsafe skill archive: package-path-traversal \(CRITICAL\) at /,
    );
    expect(err.details).toMatchObject({ findings: [expect.objectContaining({ ruleId: "package-path-traversal" })] });
    expect(existsSync(path.join(box.dir, "evil.txt"))).toBe(false);
  });

  it.each([
    ["AA/evil.txt", "../evil.txt"],
    ["Aetc/cron", "/etc/cron"],
    ["CCAx", "C:\\x"],
    ["aab", "a:b"],
  ])("rejects the patched member %j → %j during extraction when scanning is off", async (placeholder, hostile) => {
    await writeZip(box.zip, skill("slip", "slip", [{ name: placeholder, data: "x", compress: false }]));
    expect(await patchZipName(box.zip, placeholder, hostile)).toBe(2);
    await expectRejected(
      installSkillArchive(box.zip, options({ scan: false })),
      "ARCHIVE_UNSAFE",
      `Archive contains unsafe member path: '${hostile}'`,
    );
  });

  it("skips symlink members and installs the rest", async () => {
    await writeZip(
      box.zip,
      skill("linky", "linky", [
        { name: "linky/passwd", data: "/etc/passwd", mode: 0o120777 },
        { name: "linky/up", data: "../../..", mode: 0o120777 },
        { name: "linky/notes.md", data: "kept" },
      ]),
    );
    const result = await installSkillArchive(box.zip, options());
    expect((await readdir(result.skillDir)).sort()).toEqual(["SKILL.md", "notes.md"]);
  });

  it("rejects 5,000 entries with DeerFlow's message", async () => {
    await writeZip(box.zip, [
      ...skill("many"),
      ...Array.from({ length: 4999 }, (_, i) => ({ name: `many/f${i}.txt`, data: "x" })),
    ]);
    await expectRejected(
      installSkillArchive(box.zip, options()),
      "ARCHIVE_TOO_LARGE",
      "Skill archive contains too many entries (5000 > 4096).",
    );
  });

  it("accepts exactly 4,096 entries", async () => {
    await writeZip(box.zip, [
      ...skill("many"),
      ...Array.from({ length: 4095 }, (_, i) => ({ name: `many/f${i}.txt`, data: "x" })),
    ]);
    const result = await installSkillArchive(box.zip, options({ staticScanner: cleanScanner() }));
    expect((await readdir(result.skillDir)).length).toBe(4096);
    // 4,096 file creations and the scan reading each back: 15-26 s on CI's VM disk, so this budget, not the unit default.
  }, 120_000);

  it("rejects an executable member and installs a PNG", async () => {
    await writeZip(
      box.zip,
      skill("bin", "bin", [{ name: "bin/assets/tool", data: Buffer.from("7F454C46020101000000", "hex") }]),
    );
    await expectRejected(
      installSkillArchive(box.zip, options()),
      "ARCHIVE_UNSAFE",
      "Archive contains executable binary member: 'bin/assets/tool'",
    );

    await writeZip(
      box.zip,
      skill("img", "img", [
        { name: "img/assets/logo.png", data: Buffer.from("89504E470D0A1A0A0000000D49484452", "hex") },
      ]),
    );
    const result = await installSkillArchive(box.zip, options());
    expect(await readdir(path.join(result.skillDir, "assets"))).toEqual(["logo.png"]);
  });
});
