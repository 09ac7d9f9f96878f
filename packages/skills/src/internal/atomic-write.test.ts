import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { writeFileAtomic } from "./atomic-write.js";
import { makeTempDir } from "../catalog/test-helpers.js";

let tmp: string;
beforeEach(async () => {
  tmp = await makeTempDir();
});
afterEach(async () => {
  vi.restoreAllMocks();
  await fs.rm(tmp, { recursive: true, force: true });
});

describe("writeFileAtomic", () => {
  it("creates a new file", async () => {
    const file = path.join(tmp, "a.json");
    await writeFileAtomic(file, "{}");
    expect(await fs.readFile(file, "utf8")).toBe("{}");
    expect(await fs.readdir(tmp)).toEqual(["a.json"]);
  });

  it("keeps the mode of the file it replaces", async () => {
    const file = path.join(tmp, "a.json");
    await fs.writeFile(file, "old", { mode: 0o600 });
    await fs.chmod(file, 0o600);
    await writeFileAtomic(file, "new");
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(await fs.readFile(file, "utf8")).toBe("new");
  });

  it("leaves the old file and no temp file when the rename fails", async () => {
    const file = path.join(tmp, "a.json");
    await fs.writeFile(file, "old");
    vi.spyOn(fs, "rename").mockRejectedValueOnce(Object.assign(new Error("EIO: simulated crash"), { code: "EIO" }));
    await expect(writeFileAtomic(file, "new")).rejects.toThrow("simulated crash");
    expect(await fs.readFile(file, "utf8")).toBe("old");
    expect(await fs.readdir(tmp)).toEqual(["a.json"]);
  });
});
