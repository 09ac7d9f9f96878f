/**
 * grep through ripgrep gives exactly what the plain JavaScript search gives:
 * the same queries on one generated tree (unicode, binary files, long lines,
 * size caps, CRLF and invalid UTF-8, hidden and ignored files, .gitignore,
 * links, nested mounts, regex and literal, case-insensitive, glob filters,
 * truncation) through a sandbox with ripgrep and one without, on the host
 * runner and under bubblewrap. Each query that has a literal to look for must
 * really have gone through a successful ripgrep listing.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BubblewrapRunner,
  HostRunner,
  LocalSandbox,
  type CommandRunner,
  type GrepOptions,
  type Mount,
} from "../src/index.js";
import { findExecutable } from "../src/exec/executables.js";
import { createTempRoot } from "./support/local-fixture.js";
import { ObservedRunner } from "./support/observed-runner.js";

const rgFound = findExecutable("rg") !== undefined;
const bwrapUsable = await BubblewrapRunner.isAvailable();
const inCI = process.env["CI"] === "true";
if (!rgFound && !inCI) {
  // oxlint-disable-next-line no-console -- a loud skip on the developer's terminal is this line's job
  console.warn(
    "\n\n!!! ripgrep equivalence tests SKIPPED: rg is not installed (apt-get install ripgrep). Under CI=true this is a failure.\n\n",
  );
}

describe("ripgrep on this host", () => {
  it.runIf(inCI)("is installed (required under CI=true)", () => {
    expect(rgFound).toBe(true);
  });
});

const WS = "/mnt/user-data/workspace";
const NEEDLE_PATH = "/mnt/user-data/workspace/needle";

async function put(root: string, rel: string, content: string | Buffer): Promise<void> {
  const file = path.join(root, ...rel.split("/"));
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, content);
}

/** The tree: every case where ripgrep's and the JavaScript search's rules could part. */
async function generateTree(
  dirs: Record<"workspace" | "uploads" | "outputs" | "skills" | "data" | "models", string>,
): Promise<void> {
  const ws = dirs.workspace;
  await put(
    ws,
    "unicode/ünïcödé.txt",
    "Größe and STRASSE and straße\nΣΊΣΥΦΟΣ σίσυφος needle\n日本語のテキスト needle\n😀 needle 😀\nKelvin \u212A sign\nlong \u017F s\n",
  );
  await put(ws, "names/with space & 'quote'.txt", "needle in an awkward name\n");
  await put(ws, "names/new\nline.txt", "needle behind a newline in the name\n");
  await put(ws, "names/$(touch pwned).txt", "needle behind a shell-looking name\n");
  await put(ws, "bin/early-nul.bin", Buffer.concat([Buffer.from("needle\0binary\n"), Buffer.alloc(100, 1)]));
  await put(
    ws,
    "bin/late-nul.txt",
    Buffer.concat([
      Buffer.from(`${"text line\n".repeat(900)}`),
      Buffer.from("needle\0after the probe\nneedle again\n"),
    ]),
  );
  await put(ws, "bin/utf16.txt", Buffer.from("\uFEFFneedle in utf-16\n", "utf16le"));
  // A UTF-16 byte-order mark before ASCII: decoded as UTF-16 (ripgrep's default) it holds no "needle".
  await put(
    ws,
    "bin/fake-utf16.txt",
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("needle after a UTF-16 BOM\n")]),
  );
  await put(
    ws,
    "long/lines.txt",
    `${"x".repeat(2500)} needle\n${"y".repeat(1990)} needle\nshort needle\n${"é".repeat(1500)} needle\n`,
  );
  await put(ws, "size/exact.txt", `needle\n${"z".repeat(1_000_000 - 8)}\n`);
  await put(ws, "size/over.txt", `needle\n${"z".repeat(1_000_001 - 8)}\n`);
  await put(ws, "crlf.txt", "needle\r\nfoo needle\r\nlast needle");
  await put(ws, "latin1.txt", Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6e, 0x65, 0x65, 0x64, 0x6c, 0x65, 0x0a]));
  await put(ws, "bom.txt", "\uFEFFneedle at the start\n");
  await put(ws, "paths.txt", `see ${NEEDLE_PATH} here\nand /mnt/skills/public/x\n`);
  await put(ws, "regex.txt", "a.b*c (d) needle\nab*c\nneedle-42 and needle-7\nNEEDLE upper\nneeeedle\n");
  await put(ws, ".hidden/secret.txt", "hidden needle\n");
  await put(ws, ".envrc", "export needle=1\n");
  await put(ws, ".env/x.txt", "ignored needle\n");
  await put(ws, "node_modules/pkg/index.js", "ignored needle\n");
  await put(ws, "build/out.txt", "ignored needle\n");
  await put(ws, "server.log", "ignored needle\n");
  await put(ws, "notes.tmp", "ignored needle\n");
  await put(ws, "deps.egg-info/PKG", "ignored needle\n");
  await put(ws, ".gitignore", "*.txt\ngitignored/\n");
  await put(ws, ".ignore", "*\n");
  await put(ws, ".rgignore", "*\n");
  await put(ws, "gitignored/file.txt", "needle rg would skip by default\n");
  await put(ws, "order/a.txt", "needle a.txt\n");
  await put(ws, "order/a/z.txt", "needle a/z\n");
  await put(ws, "order/B.txt", "needle B\n");
  await put(ws, "order/_u.txt", "needle _u\n");
  await put(ws, "a/b/c/d/e/deep.txt", "deep needle\n");
  for (let i = 0; i < 150; i++)
    await put(ws, `many/f${String(i).padStart(3, "0")}.txt`, `needle ${i}.1\nfiller\nneedle ${i}.2\nNeedle ${i}.3\n`);
  await fs.symlink("../crlf.txt", path.join(ws, "links-file.txt"));
  await fs.symlink("unicode", path.join(ws, "links-dir"));
  await fs.symlink("/etc", path.join(ws, "links-out"));
  spawnSync("mkfifo", [path.join(ws, "a-fifo")]);
  await put(dirs.uploads, "report.txt", "uploaded needle\n");
  await put(dirs.outputs, "result.md", "# needle in outputs\n");
  await put(dirs.skills, "public/demo/SKILL.md", "---\nname: demo\n---\nneedle skill\n");
  await put(dirs.data, "readme.md", "needle in data\n");
  await put(dirs.data, "models/shadowed.txt", "needle shadowed by the nested mount\n");
  await put(dirs.models, "llama/config.json", '{"needle": true}\n');
}

interface Query {
  readonly path: string;
  readonly pattern: string;
  readonly options?: GrepOptions;
  /** Whether ripgrep must have been used (the pattern has a literal and the root is a folder). */
  readonly listed: boolean;
}

const q = (pattern: string, options: GrepOptions = {}, root = WS, listed = true): Query => ({
  path: root,
  pattern,
  options,
  listed,
});

const QUERIES: readonly Query[] = [
  q("needle"),
  q("needle", { caseSensitive: true }),
  q("needle", { maxResults: 1 }),
  q("needle", { maxResults: 7, caseSensitive: true }),
  q("needle", { maxResults: 500 }),
  q("needle", { maxResults: 100000 }),
  q("NEEDLE", { caseSensitive: true }),
  q("(?i)NEEDLE", { caseSensitive: true }),
  q("need(le)?\\b"),
  q("ne+dle"),
  q("n.edle", { caseSensitive: true }),
  q("needle-\\d+", { caseSensitive: true }),
  q("\\d{3}", {}, WS, false),
  q("\\d+\\.\\d"),
  q("needle$", { caseSensitive: true }),
  q("^needle"),
  // Case-insensitive Greek: every letter has case, so there is no literal to list with (plain search).
  q("straße|σίσυφος", {}, WS, false),
  q("straße|σίσυφος", { caseSensitive: true }),
  q("Größe"),
  q("Größe", { caseSensitive: true }),
  q("ΣΊΣΥΦΟΣ", {}, WS, false),
  q("ΣΊΣΥΦΟΣ", { caseSensitive: true }),
  q("日本語"),
  q("😀 needle"),
  q("k", { maxResults: 500 }),
  q("\u017F"),
  q("\\x6eeedle"),
  q("caf. needle"),
  q("\uFFFD needle"),
  q("a.b*c (d)", { literal: true }),
  q("ab*c", { literal: true, caseSensitive: true }),
  q(NEEDLE_PATH, { literal: true }),
  q("needle", { glob: "*.txt" }),
  q("needle", { glob: "**/*.bin" }),
  q("needle", { glob: "many/**", maxResults: 20 }),
  q("needle", { glob: "{unicode,names}/*" }),
  q("needle", {}, "/mnt/user-data"),
  q("needle", { maxResults: 500 }, "/"),
  q("needle", {}, "/mnt/data"),
  q("needle", {}, `${WS}/many`),
  q("needle", {}, `${WS}/crlf.txt`, false),
  q("zzzz-no-such-text"),
];

const runners: [string, boolean, () => CommandRunner][] = [
  ["the host runner", rgFound, () => new HostRunner()],
  ["bubblewrap", rgFound && bwrapUsable, () => new BubblewrapRunner()],
];

describe.each(runners)("grep with ripgrep through %s", (_label, enabled, makeRunner) => {
  let root: string;
  let runner: ObservedRunner;
  let withRipgrep: LocalSandbox;
  let plain: LocalSandbox;

  beforeAll(async () => {
    if (!enabled) return;
    root = await createTempRoot("rg-equivalence");
    const dirs = {
      workspace: path.join(root, "thread", "workspace"),
      uploads: path.join(root, "thread", "uploads"),
      outputs: path.join(root, "thread", "outputs"),
      skills: path.join(root, "skills"),
      data: path.join(root, "data"),
      models: path.join(root, "models"),
    };
    await Promise.all(Object.values(dirs).map((dir) => fs.mkdir(dir, { recursive: true })));
    await generateTree(dirs);
    const mounts: Mount[] = [
      { virtualPath: WS, hostPath: dirs.workspace, readOnly: false },
      { virtualPath: "/mnt/user-data/uploads", hostPath: dirs.uploads, readOnly: false },
      { virtualPath: "/mnt/user-data/outputs", hostPath: dirs.outputs, readOnly: false },
      { virtualPath: "/mnt/skills", hostPath: dirs.skills, readOnly: true },
      { virtualPath: "/mnt/data", hostPath: dirs.data, readOnly: true },
      { virtualPath: "/mnt/data/models", hostPath: dirs.models, readOnly: true },
    ];
    runner = new ObservedRunner(makeRunner());
    withRipgrep = new LocalSandbox({ id: "local:default:rg", mounts, runner });
    plain = new LocalSandbox({ id: "local:default:plain", mounts, runner, ripgrep: false });
  });

  afterAll(async () => {
    if (root !== undefined) await fs.rm(root, { recursive: true, force: true });
  });

  it
    .skipIf(!enabled)
    .each(
      QUERIES.map((query) => [`${query.pattern} ${JSON.stringify(query.options)} under ${query.path}`, query] as const),
    )("gives the plain search's result for %s", async (_name, query) => {
    const before = runner.listings.length;
    const fast = await withRipgrep.grep(query.path, query.pattern, query.options);
    const listings = runner.listings.slice(before);
    const slow = await plain.grep(query.path, query.pattern, query.options);
    expect(fast).toEqual(slow);
    if (query.listed) {
      expect(
        listings.map((r) => ({
          exitCode: r.exitCode === 0 || r.exitCode === 1,
          stderr: r.stderr,
          truncated: r.truncated,
        })),
      ).toEqual([{ exitCode: true, stderr: "", truncated: false }]);
    } else {
      expect(listings).toEqual([]);
    }
  });

  it.skipIf(!enabled)("finds matches in every kind of place the plain search looks", async () => {
    const { matches, truncated } = await withRipgrep.grep("/", "needle", { maxResults: 500 });
    const files = new Set(matches.map((m) => m.path));
    expect(truncated).toBe(false);
    for (const expected of [
      `${WS}/names/new\nline.txt`,
      `${WS}/names/with space & 'quote'.txt`,
      `${WS}/bin/late-nul.txt`,
      `${WS}/bin/fake-utf16.txt`,
      `${WS}/size/exact.txt`,
      `${WS}/.hidden/secret.txt`,
      `${WS}/gitignored/file.txt`,
      "/mnt/user-data/uploads/report.txt",
      "/mnt/skills/public/demo/SKILL.md",
      "/mnt/data/models/llama/config.json",
    ]) {
      expect(files).toContain(expected);
    }
    for (const absent of [
      `${WS}/bin/early-nul.bin`,
      `${WS}/size/over.txt`,
      `${WS}/node_modules/pkg/index.js`,
      `${WS}/links-file.txt`,
      "/mnt/data/models/shadowed.txt",
    ]) {
      expect(files).not.toContain(absent);
    }
    expect(await withRipgrep.grep(WS, "needle", { glob: "names/*" })).toMatchObject({ truncated: false });
  });
});
