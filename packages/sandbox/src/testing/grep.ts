/** `grep`: case-insensitive by default, literal patterns, regex errors, caps, filters. */
import { DEFAULT_GREP_RESULTS, GREP_MATCH_DISPLAY_CHARS, MAX_GREP_RESULTS } from "../limits.js";
import type { GrepMatch } from "../sandbox.js";
import { expectSandboxError, type Kit } from "./context.js";

const sortMatches = (matches: readonly GrepMatch[]) =>
  [...matches]
    .map((m) => ({ path: m.path, line: m.line, text: m.text }))
    .sort((a, b) => (a.path === b.path ? a.line - b.line : a.path < b.path ? -1 : 1));

/** Registers the grep checks. */
export function grepTests(kit: Kit): void {
  const { expect } = kit;
  const tree = async (label: string): Promise<string> => {
    const root = kit.dir(label);
    await Promise.all([
      kit.sandbox().writeFile(`${root}/greet.txt`, "Hello World\nhello there\nnothing here\nHELLO again\n"),
      kit.sandbox().writeFile(`${root}/docs/readme.md`, "say hello\nabc\na.c\n"),
      kit.sandbox().writeFile(`${root}/docs/deep/notes.md`, "no greeting\nhello from deep\n"),
    ]);
    return root;
  };

  kit.test("matches case-insensitively by default, with virtual paths and 1-based lines", async () => {
    const root = await tree("default");
    const result = await kit.sandbox().grep(root, "hello");
    expect(sortMatches(result.matches)).toEqual([
      { path: `${root}/docs/deep/notes.md`, line: 2, text: "hello from deep" },
      { path: `${root}/docs/readme.md`, line: 1, text: "say hello" },
      { path: `${root}/greet.txt`, line: 1, text: "Hello World" },
      { path: `${root}/greet.txt`, line: 2, text: "hello there" },
      { path: `${root}/greet.txt`, line: 4, text: "HELLO again" },
    ]);
    expect(result.truncated).toBe(false);
  });

  kit.test("matches case-sensitively on request", async () => {
    const root = await tree("case");
    const result = await kit.sandbox().grep(root, "HELLO", { caseSensitive: true });
    expect(sortMatches(result.matches)).toEqual([{ path: `${root}/greet.txt`, line: 4, text: "HELLO again" }]);
  });

  kit.test("treats the pattern as a regular expression", async () => {
    const root = await tree("regex");
    const result = await kit.sandbox().grep(root, "^h.llo (there|again)$");
    expect(sortMatches(result.matches).map((m) => m.line)).toEqual([2, 4]);
  });

  kit.test("matches a literal pattern literally", async () => {
    const root = await tree("literal");
    expect(sortMatches((await kit.sandbox().grep(`${root}/docs`, "a.c")).matches).map((m) => m.text)).toEqual([
      "abc",
      "a.c",
    ]);
    expect(
      sortMatches((await kit.sandbox().grep(`${root}/docs`, "a.c", { literal: true })).matches).map((m) => m.text),
    ).toEqual(["a.c"]);
  });

  kit.test("accepts regex metacharacters in a literal pattern", async () => {
    const root = kit.dir("literal-meta");
    await kit.sandbox().writeFile(`${root}/code.js`, "if (a[0] === '*') {\nplain\n");
    const result = await kit.sandbox().grep(root, "(a[0] === '*')", { literal: true });
    expect(result.matches.map((m) => m.line)).toEqual([1]);
  });

  for (const pattern of ["(", "[a-", "a{2,1}", "*x"]) {
    kit.test(`rejects the invalid regex ${JSON.stringify(pattern)} with INVALID_ARGUMENT`, async () => {
      const root = await tree(`bad-regex`);
      await expectSandboxError(kit, kit.sandbox().grep(root, pattern), "INVALID_ARGUMENT");
    });
  }

  kit.test("searches only files matching the glob filter", async () => {
    const root = await tree("glob-filter");
    const result = await kit.sandbox().grep(root, "hello", { glob: "**/*.md" });
    expect(sortMatches(result.matches).map((m) => m.path)).toEqual([
      `${root}/docs/deep/notes.md`,
      `${root}/docs/readme.md`,
    ]);
  });

  kit.test("searches a single file given as the root", async () => {
    const root = await tree("single-file");
    const result = await kit.sandbox().grep(`${root}/greet.txt`, "hello");
    expect(result.matches.map((m) => m.path)).toEqual(Array(3).fill(`${root}/greet.txt`));
  });

  kit.test("skips binary files", async () => {
    const root = kit.dir("binary");
    await kit
      .sandbox()
      .writeBytes(
        `${root}/blob.bin`,
        new Uint8Array([...Buffer.from("needle\n"), 0, 1, 2, ...Buffer.from("\nneedle\n")]),
      );
    await kit.sandbox().writeFile(`${root}/text.txt`, "needle\n");
    expect((await kit.sandbox().grep(root, "needle")).matches.map((m) => m.path)).toEqual([`${root}/text.txt`]);
  });

  kit.test(`truncates matched lines to ${GREP_MATCH_DISPLAY_CHARS} characters`, async () => {
    const root = kit.dir("long-line");
    await kit.sandbox().writeFile(`${root}/long.txt`, `needle ${"x".repeat(1500)}\n`);
    const [match] = (await kit.sandbox().grep(root, "needle")).matches;
    expect(match?.text.startsWith("needle xxx")).toBe(true);
    expect(match?.text.length).toBeLessThanOrEqual(GREP_MATCH_DISPLAY_CHARS);
  });

  kit.test("stops at maxResults and sets truncated", async () => {
    const root = kit.dir("cap");
    await kit.sandbox().writeFile(`${root}/many.txt`, "match\n".repeat(50));
    const result = await kit.sandbox().grep(root, "match", { maxResults: 10 });
    expect(result.matches).toHaveLength(10);
    expect(result.truncated).toBe(true);
  });

  kit.test("does not set truncated when the matches fit exactly", async () => {
    const root = kit.dir("exact");
    await kit.sandbox().writeFile(`${root}/many.txt`, "match\n".repeat(10));
    const result = await kit.sandbox().grep(root, "match", { maxResults: 10 });
    expect(result.matches).toHaveLength(10);
    expect(result.truncated).toBe(false);
  });

  kit.test(
    `returns at most ${DEFAULT_GREP_RESULTS} matches by default and caps maxResults at ${MAX_GREP_RESULTS}`,
    async () => {
      const root = kit.dir("hard-cap");
      await kit.sandbox().writeFile(`${root}/many.txt`, "match\n".repeat(MAX_GREP_RESULTS + 50));
      const byDefault = await kit.sandbox().grep(root, "match");
      expect(byDefault.matches).toHaveLength(DEFAULT_GREP_RESULTS);
      expect(byDefault.truncated).toBe(true);
      const capped = await kit.sandbox().grep(root, "match", { maxResults: 100_000 });
      expect(capped.matches).toHaveLength(MAX_GREP_RESULTS);
      expect(capped.truncated).toBe(true);
    },
  );

  kit.test("returns no matches, not truncated, when nothing matches", async () => {
    const root = await tree("none");
    expect(await kit.sandbox().grep(root, "absent-word")).toEqual({ matches: [], truncated: false });
  });

  kit.test("rejects a missing root with NOT_FOUND", async () => {
    await expectSandboxError(kit, kit.sandbox().grep(`${kit.dir("missing")}/nope`, "x"), "NOT_FOUND");
  });
}
