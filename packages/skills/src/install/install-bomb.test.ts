import { existsSync } from "node:fs";
import { copyFile, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SkillsError } from "../errors.js";
import { installSkillArchive } from "./install.js";
import { measureRssGrowth } from "../../test/support/install/memory.js";
import { forgeDeclaredSizes, skillMd, writeZipInChildProcess } from "../../test/support/install/zip-fixtures.js";

const MB = 1_000_000;
const MiB = 1024 * 1024;
let dir: string;
let honest: string;

// One 1.2 GB-when-expanded archive (about 1.2 MB on disk), built once.
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "install-bomb-"));
  honest = path.join(dir, "bomb.skill");
  await writeZipInChildProcess(honest, [
    { name: "bomb/SKILL.md", text: skillMd("bomb") },
    ...[0, 1, 2].map((i) => ({ name: `bomb/assets/zeros${i}.bin`, zeros: 400 * MB })),
  ]);
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function installBounded(
  file: string,
  scan: boolean,
): Promise<{ err: SkillsError; growthMiB: number; leftovers: string[] }> {
  const run = await mkdtemp(path.join(dir, "run-"));
  const customRoot = path.join(run, "custom");
  const tempDir = path.join(run, "tmp");
  const { outcome, growthBytes } = await measureRssGrowth(() =>
    installSkillArchive(file, { customRoot, tempDir, scan }),
  );
  if (outcome.status !== "rejected" || !SkillsError.isInstance(outcome.reason))
    throw new Error("expected a SkillsError rejection");
  const leftovers = [
    ...(existsSync(customRoot) ? await readdir(customRoot) : []),
    ...(existsSync(tempDir) ? await readdir(tempDir) : []),
  ];
  return { err: outcome.reason, growthMiB: growthBytes / MiB, leftovers };
}

describe("installSkillArchive (decompression bombs)", () => {
  it("blocks members declared over 1 GB in the preflight, before extracting", async () => {
    const { err, leftovers } = await installBounded(honest, true);
    expect(err.code).toBe("SECURITY_BLOCKED");
    expect(err.message).toMatch(
      /^Static security scan blocked unsafe skill archive: .*package-oversized-file \(CRITICAL\) at bomb\/assets\/zeros0\.bin: /,
    );
    expect(leftovers).toEqual([]);
  });

  it("rejects honestly declared sizes with the extraction caps when scanning is off", async () => {
    const { err, leftovers } = await installBounded(honest, false);
    expect(err.code).toBe("ARCHIVE_TOO_LARGE");
    expect(err.message).toBe("Skill archive is too large or appears highly compressed.");
    expect(leftovers).toEqual([]);
  });

  it("stops a bomb with forged small sizes while streaming, with bounded memory", async () => {
    const forged = path.join(dir, "forged.skill");
    await copyFile(honest, forged);
    await forgeDeclaredSizes(forged, (name, real) => (name.endsWith(".bin") ? 1024 : real));
    const { err, growthMiB, leftovers } = await installBounded(forged, true);
    expect(err.code).toBe("ARCHIVE_TOO_LARGE");
    expect(err.message).toBe("Skill archive is too large or appears highly compressed.");
    expect(err.details).toMatchObject({ member: "bomb/assets/zeros0.bin", limit: "file" });
    // oxlint-disable-next-line no-console -- the measurement printed for the developer is this line's job
    console.info(`install bomb: RSS growth ${growthMiB.toFixed(1)} MiB`);
    expect(growthMiB).toBeLessThan(200);
    expect(leftovers).toEqual([]);
  });
});
