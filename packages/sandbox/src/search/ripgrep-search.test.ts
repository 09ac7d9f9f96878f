import { describe, expect, it } from "vitest";
import { HIDDEN_HOST_PATH } from "../exec/path-rewrite.js";
import type { ExecuteResult } from "../sandbox.js";
import { LITERAL_VARIABLE_PREFIX, ripgrepCommand } from "./ripgrep-command.js";
import { RipgrepSearch, type SearchCommandRunner } from "./ripgrep-search.js";

const WS = "/mnt/user-data/workspace";
const MOUNTS = [WS, "/mnt/user-data/uploads", "/mnt/skills"];

function result(stdout: string, extra: Partial<ExecuteResult> = {}): ExecuteResult {
  return { stdout, stderr: "", exitCode: 0, signal: null, timedOut: false, truncated: false, ...extra };
}

function searchAnswering(answer: ExecuteResult | Error): {
  search: RipgrepSearch;
  calls: Parameters<SearchCommandRunner>[0][];
} {
  const calls: Parameters<SearchCommandRunner>[0][] = [];
  const run: SearchCommandRunner = async (request) => {
    calls.push(request);
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { search: new RipgrepSearch({ run, mountPaths: MOUNTS }), calls };
}

describe("ripgrepCommand", () => {
  it("passes literals through the environment and quotes every path", () => {
    const { command, env } = ripgrepCommand({ literals: ["a'b", "$(x)"], ignoreCase: true }, [WS, `${WS}/it's`]);
    expect(env).toEqual({ [`${LITERAL_VARIABLE_PREFIX}0`]: "a'b", [`${LITERAL_VARIABLE_PREFIX}1`]: "$(x)" });
    expect(command).toMatch(
      /^exec rg --files-with-matches --null --no-config --hidden --no-ignore --no-follow --text --encoding=none --max-filesize=1000000 --fixed-strings --ignore-case /,
    );
    expect(command).toContain(
      `-e "$${LITERAL_VARIABLE_PREFIX}0" -e "$${LITERAL_VARIABLE_PREFIX}1" -- '${WS}' '${WS}/it'\\''s'`,
    );
    expect(command).toContain("--glob='!node_modules'");
    expect(command).not.toContain("$(x)");
  });

  it("searches case-sensitively unless told otherwise", () => {
    expect(ripgrepCommand({ literals: ["x"], ignoreCase: false }, [WS]).command).toContain("--case-sensitive");
  });
});

describe("RipgrepSearch.candidates", () => {
  it("lists NUL-separated paths relative to the search root, from one command", async () => {
    const { search, calls } = searchAnswering(result(`${WS}/a/b.txt\0${WS}/new\nline.txt\0`));
    const candidates = await search.candidates(/needle/, WS, [WS]);
    expect(candidates?.size).toBe(2);
    expect(candidates?.has("a/b.txt")).toBe(true);
    expect(candidates?.has("new\nline.txt")).toBe(true);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.cwd).toBe(WS);
  });

  it("takes exit status 1 with no output as no candidates", async () => {
    const { search } = searchAnswering(result("", { exitCode: 1 }));
    expect((await search.candidates(/needle/, WS, [WS]))?.size).toBe(0);
  });

  it("maps nested roots onto the search root", async () => {
    const { search } = searchAnswering(result("/mnt/user-data/uploads/u.txt\0/mnt/user-data/workspace/w.txt\0"));
    const candidates = await search.candidates(/needle/, "/mnt/user-data", ["/mnt/user-data/uploads", WS]);
    expect([candidates?.has("uploads/u.txt"), candidates?.has("workspace/w.txt")]).toEqual([true, true]);
  });

  it("runs nothing for a pattern without a literal", async () => {
    const { search, calls } = searchAnswering(result(""));
    expect(await search.candidates(/\d+/, WS, [WS])).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it.each([
    ["an error status", result(`${WS}/a\0`, { exitCode: 2 })],
    ["a message on stderr", result(`${WS}/a\0`, { stderr: "rg: x: Permission denied (os error 13)\n" })],
    ["a timeout", result(`${WS}/a\0`, { timedOut: true, exitCode: null, signal: "SIGKILL" })],
    ["a cut listing", result(`${WS}/a\0`, { truncated: true })],
    ["a path outside the roots", result(`/etc/passwd\0`)],
    ["a path a host runner rewrote", result(`${WS}/x${WS}/y.txt\0`)],
    ["a host path the runner hid", result(`${WS}/x/${HIDDEN_HOST_PATH}/y.txt\0`)],
  ])("searches every file after %s", async (_label, answer) => {
    const { search } = searchAnswering(answer);
    expect(await search.candidates(/needle/, WS, [WS])).toBeUndefined();
  });

  it("searches every file when the runner refuses the command", async () => {
    const { search } = searchAnswering(new Error("HOST_EXECUTION_DISABLED"));
    expect(await search.candidates(/needle/, WS, [WS])).toBeUndefined();
  });

  it("stops trying once rg is missing in the sandbox", async () => {
    const { search, calls } = searchAnswering(result("", { exitCode: 127, stderr: "sh: 1: exec: rg: not found\n" }));
    expect(await search.candidates(/needle/, WS, [WS])).toBeUndefined();
    expect(await search.candidates(/needle/, WS, [WS])).toBeUndefined();
    expect(calls).toHaveLength(1);
  });
});
