/** `listDir`: depth, sorting, trailing `/` on directories, virtual paths. */
import { expectSandboxError, expectSuccess, shellQuote, type Kit } from "./context.js";

/** Registers the listDir checks. */
export function listDirTests(kit: Kit): void {
  const { expect } = kit;
  /** root/{b.txt, a/{x.txt, b/{c/{d.txt}}}, m/, Z.txt} */
  const tree = async (label: string): Promise<string> => {
    const root = kit.dir(label);
    const sandbox = kit.sandbox();
    await Promise.all([
      sandbox.writeFile(`${root}/b.txt`, "b"),
      sandbox.writeFile(`${root}/Z.txt`, "z"),
      sandbox.writeFile(`${root}/a/x.txt`, "x"),
      sandbox.writeFile(`${root}/a/b/c/d.txt`, "d"),
    ]);
    expectSuccess(kit, await sandbox.execute(`mkdir -p ${shellQuote(`${root}/m`)}`));
    return root;
  };

  kit.test("lists two levels by default, directories with a trailing /", async () => {
    const root = await tree("default");
    const entries = await kit.sandbox().listDir(root);
    expect([...entries].sort()).toEqual(
      [`${root}/Z.txt`, `${root}/a/`, `${root}/a/b/`, `${root}/a/x.txt`, `${root}/b.txt`, `${root}/m/`].sort(),
    );
  });

  kit.test("returns the entries sorted", async () => {
    const root = await tree("sorted");
    const entries = await kit.sandbox().listDir(root, { maxDepth: 3 });
    expect(entries.length).toBeGreaterThan(3);
    expect([...entries]).toEqual([...entries].sort());
  });

  kit.test("lists only direct children with maxDepth 1", async () => {
    const root = await tree("depth1");
    const entries = await kit.sandbox().listDir(root, { maxDepth: 1 });
    expect([...entries].sort()).toEqual([`${root}/Z.txt`, `${root}/a/`, `${root}/b.txt`, `${root}/m/`].sort());
  });

  kit.test("descends further with a larger maxDepth", async () => {
    const root = await tree("depth4");
    const entries = await kit.sandbox().listDir(root, { maxDepth: 4 });
    expect(entries).toContain(`${root}/a/b/c/`);
    expect(entries).toContain(`${root}/a/b/c/d.txt`);
  });

  kit.test("accepts a trailing / on the listed path", async () => {
    const root = await tree("trailing");
    expect([...(await kit.sandbox().listDir(`${root}/`, { maxDepth: 1 }))].sort()).toEqual(
      [`${root}/Z.txt`, `${root}/a/`, `${root}/b.txt`, `${root}/m/`].sort(),
    );
  });

  kit.test("returns nothing for an empty directory", async () => {
    const root = await tree("empty");
    expect(await kit.sandbox().listDir(`${root}/m`)).toEqual([]);
  });

  kit.test("lists directories created by commands", async () => {
    const root = kit.dir("from-cmd");
    expectSuccess(
      kit,
      await kit
        .sandbox()
        .execute(`mkdir -p ${shellQuote(`${root}/made/inner`)} && touch ${shellQuote(`${root}/made/inner/f`)}`),
    );
    const entries = await kit.sandbox().listDir(root, { maxDepth: 3 });
    expect(entries).toContain(`${root}/made/`);
    expect(entries).toContain(`${root}/made/inner/f`);
  });

  kit.test("rejects a missing directory with NOT_FOUND", async () => {
    await expectSandboxError(kit, kit.sandbox().listDir(`${kit.dir("missing")}/nope`), "NOT_FOUND");
  });

  kit.test("rejects a file with NOT_A_DIRECTORY", async () => {
    const root = await tree("file");
    await expectSandboxError(kit, kit.sandbox().listDir(`${root}/b.txt`), "NOT_A_DIRECTORY");
  });
}
