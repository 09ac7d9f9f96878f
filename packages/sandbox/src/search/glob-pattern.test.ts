import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { MAX_BRACE_EXPANSIONS, compileGlob, expandBraces } from "./glob-pattern.js";

function matches(pattern: string, paths: string[], matchBase = false): string[] {
  const match = compileGlob(pattern, { matchBase });
  return paths.filter((p) => match(p));
}

const tree = ["a.py", "src/b.py", "src/deep/c.py", "src/deep/d.ts", "lib/e.ts", ".hidden.py", "README.md"];

describe("compileGlob", () => {
  it("anchors a pattern without a slash at the root", () => {
    expect(matches("*.py", tree)).toEqual(["a.py", ".hidden.py"]);
  });

  it("matches the basename at any depth with matchBase", () => {
    expect(matches("*.py", tree, true)).toEqual(["a.py", "src/b.py", "src/deep/c.py", ".hidden.py"]);
    expect(matches("{*.md,src/*.py}", tree, true)).toEqual(["src/b.py", "README.md"]);
  });

  it("anchors patterns with a slash at the root", () => {
    expect(matches("src/*.py", tree)).toEqual(["src/b.py"]);
    expect(matches("deep/*.py", tree)).toEqual([]);
  });

  it("lets ** match zero or more segments", () => {
    expect(matches("src/**/*.py", tree)).toEqual(["src/b.py", "src/deep/c.py"]);
    expect(matches("**/*.ts", tree)).toEqual(["src/deep/d.ts", "lib/e.ts"]);
  });

  it("matches **/x at the root too", () => {
    expect(matches("**/a.py", tree)).toEqual(["a.py"]);
    expect(matches("**/README.md", tree)).toEqual(["README.md"]);
  });

  it("matches a directory and everything below it with a trailing /**", () => {
    expect(matches("src/**", ["src", "src/a", "src/a/b", "srcx", "lib/src"])).toEqual(["src", "src/a", "src/a/b"]);
  });

  it("matches everything with a lone **", () => {
    expect(matches("**", tree)).toEqual(tree);
  });

  it("keeps * and ? inside one segment", () => {
    expect(matches("src/*", tree)).toEqual(["src/b.py"]);
    expect(matches("src/?.py", tree)).toEqual(["src/b.py"]);
    expect(matches("s?c/b.py", ["src/b.py", "s/c/b.py"])).toEqual(["src/b.py"]);
  });

  it("supports character classes and negation", () => {
    const names = ["a1", "b1", "c1", "]1", "-1"];
    expect(matches("[ab]1", names)).toEqual(["a1", "b1"]);
    expect(matches("[a-b]1", names)).toEqual(["a1", "b1"]);
    expect(matches("[!ab]1", names)).toEqual(["c1", "]1", "-1"]);
    expect(matches("[^ab]1", names)).toEqual(["c1", "]1", "-1"]);
    expect(matches("[]]1", names)).toEqual(["]1"]);
  });

  it("never lets a negated class match a slash", () => {
    expect(matches("a[!x]b", ["a/b", "ayb"])).toEqual(["ayb"]);
  });

  it("treats an unclosed [ literally", () => {
    expect(matches("a[b", ["a[b", "ab"])).toEqual(["a[b"]);
  });

  it("expands braces, nested ones included", () => {
    expect(matches("**/*.{py,ts}", tree)).toEqual([
      "a.py",
      "src/b.py",
      "src/deep/c.py",
      "src/deep/d.ts",
      "lib/e.ts",
      ".hidden.py",
    ]);
    expect(matches("{src,lib}/*.ts", tree)).toEqual(["lib/e.ts"]);
    expect(matches("{a,src/{b,deep/c}}.py", tree)).toEqual(["a.py", "src/b.py", "src/deep/c.py"]);
  });

  it("escapes metacharacters with a backslash and treats regex characters literally", () => {
    expect(matches("\\*.txt", ["*.txt", "a.txt"])).toEqual(["*.txt"]);
    expect(matches("a+b(c).txt", ["a+b(c).txt", "aab(c).txt"])).toEqual(["a+b(c).txt"]);
    expect(matches("a.b", ["a.b", "axb"])).toEqual(["a.b"]);
  });

  it("is case-sensitive", () => {
    expect(matches("*.PY", tree, true)).toEqual([]);
  });

  it("ignores a leading ./", () => {
    expect(matches("./src/*.py", tree)).toEqual(["src/b.py"]);
  });

  it("does not backtrack exponentially on many stars", () => {
    const match = compileGlob("*a*a*a*a*a*a*a*a*a*a*b");
    expect(match("a".repeat(250))).toBe(false);
    expect(match(`${"a".repeat(20)}b`)).toBe(true);
  });

  it("rejects an empty pattern", () => {
    expect(() => compileGlob("")).toThrow(SandboxError);
  });

  it("rejects a malformed class range", () => {
    try {
      compileGlob("[z-a]");
      expect.unreachable();
    } catch (err) {
      expect(SandboxError.isInstance(err) && err.code).toBe("INVALID_ARGUMENT");
    }
  });
});

describe("expandBraces", () => {
  it("expands left to right", () => {
    expect(expandBraces("{a,b}{1,2}")).toEqual(["a1", "a2", "b1", "b2"]);
  });

  it("keeps braces without a comma literal, expanding what is inside", () => {
    expect(expandBraces("{a}")).toEqual(["{a}"]);
    expect(expandBraces("{a{b,c}}")).toEqual(["{ab}", "{ac}"]);
  });

  it("keeps escaped and unclosed braces literal", () => {
    expect(expandBraces("\\{a,b}")).toEqual(["\\{a,b}"]);
    expect(expandBraces("{a,b")).toEqual(["{a,b"]);
  });

  it("allows empty alternatives", () => {
    expect(expandBraces("a{,.bak}")).toEqual(["a", "a.bak"]);
  });

  it("refuses patterns that expand too far", () => {
    const pattern = "{a,b}".repeat(11);
    expect(2 ** 11).toBeGreaterThan(MAX_BRACE_EXPANSIONS);
    expect(() => expandBraces(pattern)).toThrow(/more than 1024 alternatives/);
  });
});
