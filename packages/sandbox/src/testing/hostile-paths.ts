/**
 * Hostile paths through the file API: `..` traversal, symlinks planted by a
 * command that point out of the sandbox, and writes to the read-only skills
 * mount.
 */
import { SandboxError } from "../errors.js";
import { SKILLS_PATH, USER_DATA_ROOT, WORKSPACE_PATH } from "../limits.js";
import { expectSandboxError, expectSuccess, shellQuote, type Kit } from "./context.js";

/** Registers the traversal, symlink and read-only checks. */
export function hostilePathTests(kit: Kit): void {
  const { expect } = kit;
  const traversals = [
    `${WORKSPACE_PATH}/../../../etc/passwd`,
    `${USER_DATA_ROOT}/../../etc/passwd`,
    `${WORKSPACE_PATH}/kit/../../../../../../etc/passwd`,
    `${SKILLS_PATH}/../../etc/passwd`,
  ];
  for (const path of traversals) {
    kit.test(`refuses the traversal ${JSON.stringify(path)} in every file call with PATH_ESCAPE`, async () => {
      const s = kit.sandbox();
      await expectSandboxError(kit, s.readFile(path), "PATH_ESCAPE");
      await expectSandboxError(kit, s.readBytes(path), "PATH_ESCAPE");
      await expectSandboxError(kit, s.writeFile(path.replace(/passwd$/, "kit-traversal.txt"), "x"), "PATH_ESCAPE");
      await expectSandboxError(
        kit,
        s.writeBytes(path.replace(/passwd$/, "kit-traversal.bin"), new Uint8Array([1])),
        "PATH_ESCAPE",
      );
      const dir = path.replace(/\/passwd$/, "");
      await expectSandboxError(kit, s.listDir(dir), "PATH_ESCAPE");
      await expectSandboxError(kit, s.glob(dir, "*"), "PATH_ESCAPE");
      await expectSandboxError(kit, s.grep(dir, "root"), "PATH_ESCAPE");
    });
  }

  kit.test("returns nothing outside the root for a glob pattern with ..", async () => {
    const root = kit.dir("glob-dotdot");
    await kit.sandbox().writeFile(`${root}/inside.txt`, "x");
    let matches: readonly string[] = [];
    try {
      matches = (await kit.sandbox().glob(root, "../../../../../etc/*")).matches;
    } catch (err) {
      if (!SandboxError.isInstance(err)) throw err;
    }
    expect(matches.filter((m) => !m.startsWith(`${root}/`))).toEqual([]);
  });

  /** A directory holding links planted by a command: to /etc, /etc/passwd, a relative escape, /tmp, and a safe in-tree link. */
  const plant = async (label: string): Promise<string> => {
    const root = kit.dir(label);
    await kit.sandbox().writeFile(`${root}/real.txt`, "real content\n");
    const links = [
      "ln -s /etc etc-link",
      "ln -s /etc/passwd passwd-link",
      "ln -s ../../../../../../../../etc rel-link",
      "ln -s /tmp tmp-link",
      "ln -s real.txt alias.txt",
    ];
    expectSuccess(kit, await kit.sandbox().execute(links.join(" && "), { cwd: root }));
    return root;
  };

  kit.test("refuses to read through a symlink to a host directory", async () => {
    const root = await plant("symlink-dir");
    await expectSandboxError(kit, kit.sandbox().readFile(`${root}/etc-link/passwd`), "PATH_ESCAPE");
    await expectSandboxError(kit, kit.sandbox().readBytes(`${root}/etc-link/passwd`), "PATH_ESCAPE");
    await expectSandboxError(kit, kit.sandbox().readFile(`${root}/rel-link/passwd`), "PATH_ESCAPE");
  });

  kit.test("refuses to read through a symlink to a host file", async () => {
    const root = await plant("symlink-file");
    await expectSandboxError(kit, kit.sandbox().readFile(`${root}/passwd-link`), "PATH_ESCAPE");
    await expectSandboxError(kit, kit.sandbox().readBytes(`${root}/passwd-link`), "PATH_ESCAPE");
  });

  kit.test("refuses to write through a symlink that leaves the sandbox", async () => {
    const root = await plant("symlink-write");
    const name = `kit-escape-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`;
    await expectSandboxError(kit, kit.sandbox().writeFile(`${root}/tmp-link/${name}`, "escaped"), "PATH_ESCAPE");
    await expectSandboxError(
      kit,
      kit.sandbox().writeBytes(`${root}/tmp-link/${name}`, new Uint8Array([1])),
      "PATH_ESCAPE",
    );
    await expectSandboxError(
      kit,
      kit.sandbox().writeFile(`${root}/passwd-link`, "overwritten", { append: true }),
      "PATH_ESCAPE",
    );
  });

  kit.test("refuses to list through a symlink that leaves the sandbox", async () => {
    const root = await plant("symlink-list");
    await expectSandboxError(kit, kit.sandbox().listDir(`${root}/etc-link`), "PATH_ESCAPE");
  });

  kit.test("does not follow escaping symlinks when listing, globbing or grepping a tree", async () => {
    const root = await plant("symlink-walk");
    const listed = await kit.sandbox().listDir(root, { maxDepth: 3 });
    expect(listed.filter((p) => /\/(etc|rel|tmp)-link\/./.test(p))).toEqual([]);
    const globbed = await kit.sandbox().glob(root, "**/passwd");
    expect(globbed.matches).toEqual([]);
    const grepped = await kit.sandbox().grep(root, "root:");
    expect(grepped.matches.map((m) => m.path)).toEqual([]);
  });

  kit.test("reads through a symlink that stays inside the sandbox", async () => {
    const root = await plant("symlink-inside");
    expect(await kit.sandbox().readFile(`${root}/alias.txt`)).toBe("real content\n");
  });

  kit.testIf(kit.options.skillsMounted, "refuses writes to /mnt/skills with READ_ONLY", async () => {
    const s = kit.sandbox();
    await expectSandboxError(kit, s.writeFile(`${SKILLS_PATH}/kit-write.txt`, "x"), "READ_ONLY");
    await expectSandboxError(kit, s.writeBytes(`${SKILLS_PATH}/kit-write.bin`, new Uint8Array([1])), "READ_ONLY");
    await expectSandboxError(kit, s.writeFile(`${SKILLS_PATH}/public/kit/new/SKILL.md`, "x"), "READ_ONLY");
  });

  kit.testIf(
    kit.options.skillsFixture !== undefined,
    "reads, lists and searches the skills fixture and refuses to change it",
    async () => {
      const fixture = kit.options.skillsFixture;
      if (fixture === undefined) return;
      const s = kit.sandbox();
      expect(await s.readFile(fixture.path)).toBe(fixture.content);
      expect(expectSuccess(kit, await s.execute(`cat ${shellQuote(fixture.path)}`)).stdout).toBe(fixture.content);
      const dir = fixture.path.slice(0, fixture.path.lastIndexOf("/"));
      expect(await s.listDir(SKILLS_PATH, { maxDepth: 8 })).toContain(fixture.path);
      expect((await s.glob(SKILLS_PATH, `**/${fixture.path.slice(dir.length + 1)}`)).matches).toContain(fixture.path);
      const firstLine = fixture.content.split("\n").find((l) => l.trim().length > 3) ?? "";
      expect((await s.grep(dir, firstLine, { literal: true })).matches.map((m) => m.path)).toContain(fixture.path);
      await expectSandboxError(kit, s.writeFile(fixture.path, "changed"), "READ_ONLY");
      await expectSandboxError(kit, s.writeFile(fixture.path, "appended", { append: true }), "READ_ONLY");
      expect(await s.readFile(fixture.path)).toBe(fixture.content);
    },
  );

  kit.testIf(
    kit.options.skillsMounted && kit.options.isolated,
    "refuses command writes to /mnt/skills with a read-only or permission error",
    async () => {
      const created = `${SKILLS_PATH}/kit-cmd-${process.pid}-${Date.now()}.txt`;
      const createdDir = `${SKILLS_PATH}/kit-dir-${process.pid}-${Date.now()}`;
      const targets = [created, ...(kit.options.skillsFixture ? [kit.options.skillsFixture.path] : [])];
      try {
        for (const target of targets) {
          const result = await kit.sandbox().execute(`echo hostile >> ${shellQuote(target)}`);
          expect(result.exitCode).not.toBe(0);
          expect(result.stderr).toMatch(/Read-only file system|Permission denied/i);
        }
        const mkdir = await kit.sandbox().execute(`mkdir ${shellQuote(createdDir)}`);
        expect(mkdir.exitCode).not.toBe(0);
        expect(mkdir.stderr).toMatch(/Read-only file system|Permission denied/i);
      } finally {
        // Only does something when the mount was wrongly writable.
        await kit.sandbox().execute(`rm -f ${shellQuote(created)}; rmdir ${shellQuote(createdDir)}; true`);
      }
      if (kit.options.skillsFixture)
        expect(await kit.sandbox().readFile(kit.options.skillsFixture.path)).toBe(kit.options.skillsFixture.content);
    },
  );

  kit.testIf(!kit.options.skillsMounted, "refuses writes to /mnt/skills when it is not mounted", async () => {
    const err = await kit
      .sandbox()
      .writeFile(`${SKILLS_PATH}/kit-write.txt`, "x")
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(SandboxError.isInstance(err)).toBe(true);
  });
}
