/**
 * `glob`: `*` and `**` (a pattern without `/` matches file names at any depth,
 * as DeerFlow), directories on request, result caps and `truncated`.
 */
import { DEFAULT_GLOB_RESULTS, MAX_GLOB_RESULTS } from "../limits.js";
import { expectSandboxError, expectSuccess, shellQuote, type Kit } from "./context.js";

/** Registers the glob checks. */
export function globTests(kit: Kit): void {
  const { expect } = kit;
  /** root/{a.ts, b.md, src/{b.ts, d.js, deep/{c.ts}}} */
  const tree = async (label: string): Promise<string> => {
    const root = kit.dir(label);
    await Promise.all(
      ["a.ts", "b.md", "src/b.ts", "src/d.js", "src/deep/c.ts"].map((f) => kit.sandbox().writeFile(`${root}/${f}`, f)),
    );
    return root;
  };
  /** `count` empty files `f<i>.txt` made by one command. */
  const many = async (label: string, count: number): Promise<string> => {
    const root = kit.dir(label);
    expectSuccess(
      kit,
      await kit
        .sandbox()
        .execute(
          `mkdir -p ${shellQuote(root)} && cd ${shellQuote(root)} && i=0; while [ $i -lt ${count} ]; do : > f$i.txt; i=$((i+1)); done`,
          { timeoutMs: kit.ms(60_000) },
        ),
    );
    return root;
  };
  const withoutSlash = (paths: readonly string[]) => paths.map((p) => p.replace(/\/$/, "")).sort();

  kit.test("matches at the root and in subdirectories with **", async () => {
    const root = await tree("doublestar");
    const result = await kit.sandbox().glob(root, "**/*.ts");
    expect([...result.matches].sort()).toEqual([`${root}/a.ts`, `${root}/src/b.ts`, `${root}/src/deep/c.ts`]);
    expect(result.truncated).toBe(false);
  });

  kit.test("matches a pattern without / against file names at any depth", async () => {
    const root = await tree("basename");
    expect([...(await kit.sandbox().glob(root, "*.ts")).matches].sort()).toEqual([
      `${root}/a.ts`,
      `${root}/src/b.ts`,
      `${root}/src/deep/c.ts`,
    ]);
  });

  kit.test("anchors a pattern with / at the root, * not crossing /", async () => {
    const root = await tree("anchored");
    expect((await kit.sandbox().glob(root, "src/*.ts")).matches).toEqual([`${root}/src/b.ts`]);
  });

  kit.test("matches a path pattern below a directory", async () => {
    const root = await tree("subpath");
    expect([...(await kit.sandbox().glob(root, "src/**/*.ts")).matches].sort()).toEqual([
      `${root}/src/b.ts`,
      `${root}/src/deep/c.ts`,
    ]);
  });

  kit.test("returns no matches, not truncated, when nothing matches", async () => {
    const root = await tree("none");
    expect(await kit.sandbox().glob(root, "**/*.nothing")).toEqual({ matches: [], truncated: false });
  });

  kit.test("leaves directories out unless includeDirs is set", async () => {
    const root = await tree("dirs");
    expect(withoutSlash((await kit.sandbox().glob(root, "**/deep")).matches)).toEqual([]);
    expect(withoutSlash((await kit.sandbox().glob(root, "**/deep", { includeDirs: true })).matches)).toEqual([
      `${root}/src/deep`,
    ]);
  });

  kit.test("stops at maxResults and sets truncated", async () => {
    const root = await many("cap", 30);
    const result = await kit.sandbox().glob(root, "*.txt", { maxResults: 10 });
    expect(result.matches).toHaveLength(10);
    expect(result.truncated).toBe(true);
    expect(new Set(result.matches).size).toBe(10);
  });

  kit.test("does not set truncated when the results fit exactly", async () => {
    const root = await many("exact", 12);
    const result = await kit.sandbox().glob(root, "*.txt", { maxResults: 12 });
    expect(result.matches).toHaveLength(12);
    expect(result.truncated).toBe(false);
  });

  kit.test(
    `returns at most ${DEFAULT_GLOB_RESULTS} results by default`,
    async () => {
      const root = await many("default-cap", DEFAULT_GLOB_RESULTS + 20);
      const result = await kit.sandbox().glob(root, "**/*.txt");
      expect(result.matches).toHaveLength(DEFAULT_GLOB_RESULTS);
      expect(result.truncated).toBe(true);
    },
    60_000,
  );

  kit.test(
    `caps maxResults at ${MAX_GLOB_RESULTS}`,
    async () => {
      const root = await many("hard-cap", MAX_GLOB_RESULTS + 5);
      const result = await kit.sandbox().glob(root, "*.txt", { maxResults: 50_000 });
      expect(result.matches).toHaveLength(MAX_GLOB_RESULTS);
      expect(result.truncated).toBe(true);
    },
    60_000,
  );

  kit.test("rejects a missing root with NOT_FOUND", async () => {
    await expectSandboxError(kit, kit.sandbox().glob(`${kit.dir("missing")}/nope`, "**/*"), "NOT_FOUND");
  });

  kit.test("rejects a file root with NOT_A_DIRECTORY", async () => {
    const root = await tree("file-root");
    await expectSandboxError(kit, kit.sandbox().glob(`${root}/a.ts`, "*"), "NOT_A_DIRECTORY");
  });
}
