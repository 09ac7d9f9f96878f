import { describe, expect, it } from "vitest";
import { hasCdInSubstitution, nonFileUrlSpans } from "./command-scan.js";

describe("hasCdInSubstitution", () => {
  it.each([
    ["echo $(cd /tmp)", true],
    ["x=$(pushd a; pwd)", true],
    ["echo $(abcd)", false],
    ["echo $(ls) cd", false],
    ["echo $(ls ) $(cd)", true],
    ["echo $(ls $(echo) cd)", false],
  ])("%s → %s", (command, expected) => {
    expect(hasCdInSubstitution(command)).toBe(expected);
  });
});

describe("nonFileUrlSpans", () => {
  it("finds URLs and their extent", () => {
    const command = "curl https://a.example/x?y=1 -o out";
    expect(nonFileUrlSpans(command).map(([s, e]) => command.slice(s, e))).toEqual(["https://a.example/x?y=1"]);
  });

  it("starts the scheme at a word boundary", () => {
    const command = "x_http://a.example/p git+ssh://host/repo";
    expect(nonFileUrlSpans(command).map(([s, e]) => command.slice(s, e))).toEqual(["git+ssh://host/repo"]);
  });

  it("takes the leftmost start after punctuation in the scheme run", () => {
    const command = "echo -http://a/b";
    expect(nonFileUrlSpans(command).map(([s, e]) => command.slice(s, e))).toEqual(["http://a/b"]);
  });

  it("leaves file URLs out and needs a body", () => {
    expect(nonFileUrlSpans("cat file:///etc/passwd")).toEqual([]);
    expect(nonFileUrlSpans("echo http:// x")).toEqual([]);
  });

  it("does not start a second match inside the first", () => {
    const command = "see http://a/b://c";
    expect(nonFileUrlSpans(command).map(([s, e]) => command.slice(s, e))).toEqual(["http://a/b://c"]);
  });
});

describe("command scans against DeerFlow's regexes", () => {
  // The regexes these scans replace; fine on short strings, quadratic on long hostile ones.
  const URL_RE = /(?<![\p{L}\p{N}_])[a-z][a-z0-9+.-]*:\/\/[^\s"'`;&|<>()]+/giu;
  const CD_RE = /\$\([^)]*(?<![\p{L}\p{N}_])(?:cd|pushd)(?![\p{L}\p{N}_])/u;
  const pieces = [
    "a",
    "F",
    "1",
    "_",
    ".",
    "+",
    "-",
    ":",
    "/",
    "://",
    " ",
    "(",
    ")",
    "$(",
    "cd",
    "file",
    "é",
    "'",
    "pushd",
  ];

  it("agree on 20 000 generated commands", () => {
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; n < 20_000; n++) {
      let command = "";
      for (let i = Math.floor(next() * 14); i > 0; i--) command += pieces[Math.floor(next() * pieces.length)];
      const expected = [...command.matchAll(URL_RE)]
        .filter((m) => !m[0].toLowerCase().startsWith("file://"))
        .map((m) => [m.index, m.index + m[0].length]);
      expect([command, nonFileUrlSpans(command)]).toEqual([command, expected]);
      expect([command, hasCdInSubstitution(command)]).toEqual([command, CD_RE.test(command)]);
    }
  });
});
