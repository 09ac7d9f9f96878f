import { describe, expect, it } from "vitest";
import { compileSearchRegex } from "./grep.js";
import { literalPrefilter } from "./literal-prefilter.js";

const regex = (pattern: string, options: { literal?: boolean; caseSensitive?: boolean } = {}) =>
  compileSearchRegex(pattern, options.literal === true, options.caseSensitive !== false);

describe("literalPrefilter", () => {
  it.each([
    ["TODO", ["TODO"]],
    ["TODO\\(\\w+\\): fix", ["): fix"]],
    ["foo.*barbaz", ["barbaz"]],
    ["ab*c", ["a"]],
    ["abc+d", ["ab"]],
    ["abcd?e", ["abc"]],
    ["abcd{2}e", ["abc"]],
    ["abcd{2,}e", ["abc"]],
    ["ab{,2}", ["ab"]],
    ["error|warn(ing)?", ["error", "warn"]],
    ["(a|b)xyz", ["xyz"]],
    ["[abc]def[g]", ["def"]],
    ["^start", ["start"]],
    ["end$", ["end"]],
    ["a\\.b\\/c", ["a.b/c"]],
    ["\\bword\\b", ["word"]],
    ["\\x41BC", ["BC"]],
    ["\\u0041BC", ["BC"]],
    ["\\12345x", ["x"]],
    ["(?<n>q)\\k<n>zz", ["zz"]],
    ["x(?=lookahead)y", ["x"]],
    ["ab{10,20}", ["a"]],
    ["ab{10}cd", ["cd"]],
  ])("finds the required literals of /%s/", (pattern, literals) => {
    expect(literalPrefilter(regex(pattern))).toEqual({ literals, ignoreCase: false });
  });

  it.each(["\\d+", "a*", "(abc)+", "foo|\\d", "[xyz]", ".", "", "a?"])("has no prefilter for /%s/", (pattern) => {
    expect(literalPrefilter(regex(pattern))).toBeUndefined();
  });

  it("escapes nothing away from a literal search", () => {
    expect(literalPrefilter(regex("a.b*c (d)", { literal: true }))).toEqual({
      literals: ["a.b*c (d)"],
      ignoreCase: false,
    });
  });

  it("reports case-insensitivity, from the option or a leading (?i)", () => {
    expect(literalPrefilter(regex("Needle", { caseSensitive: false }))).toEqual({
      literals: ["Needle"],
      ignoreCase: true,
    });
    expect(literalPrefilter(compileSearchRegex("(?i)Needle", false, true))).toEqual({
      literals: ["Needle"],
      ignoreCase: true,
    });
  });

  it("keeps non-ASCII letters when case matters, and cuts at them when it does not", () => {
    expect(literalPrefilter(regex("Größenänderung"))).toEqual({ literals: ["Größenänderung"], ignoreCase: false });
    expect(literalPrefilter(regex("Größenänderung", { caseSensitive: false }))).toEqual({
      literals: ["nderung"],
      ignoreCase: true,
    });
    // Caseless scripts stay whole: their only match is themselves.
    expect(literalPrefilter(regex("日本語テキスト", { caseSensitive: false }))).toEqual({
      literals: ["日本語テキスト"],
      ignoreCase: true,
    });
  });

  it("never produces a lone surrogate, U+FFFD or NUL", () => {
    expect(literalPrefilter(regex("ab😀+"))).toEqual({ literals: ["ab"], ignoreCase: false });
    expect(literalPrefilter(regex("x😀y"))).toEqual({ literals: ["x😀y"], ignoreCase: false });
    expect(literalPrefilter(regex("abc\uFFFDde"))).toEqual({ literals: ["abc"], ignoreCase: false });
    expect(literalPrefilter(regex("abc\u0000de"))).toEqual({ literals: ["abc"], ignoreCase: false });
  });

  it("matches every line the regex matches (the superset property) on tricky inputs", () => {
    const lines = ["KELVIN \u212A", "ſtraße", "a\\x41BC", "ABC", "q q zz", "warning: x", "ERROR"];
    const patterns = ["\\x41BC", "\\u0041BC", "warn(ing)?|ERROR", "(?<n>q) \\k<n> zz", "str", "ſtr", "k"];
    for (const pattern of patterns) {
      for (const caseSensitive of [true, false]) {
        const compiled = compileSearchRegex(pattern, false, caseSensitive);
        const prefilter = literalPrefilter(compiled);
        if (prefilter === undefined) continue;
        for (const line of lines) {
          if (!compiled.test(line)) continue;
          const haystack = prefilter.ignoreCase ? line.toLowerCase() : line;
          const found = prefilter.literals.some((literal) =>
            haystack.includes(prefilter.ignoreCase ? literal.toLowerCase() : literal),
          );
          expect({ pattern, caseSensitive, line, found }).toEqual({ pattern, caseSensitive, line, found: true });
        }
      }
    }
  });
});
