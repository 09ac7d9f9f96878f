import { describe, expect, it } from "vitest";
import { splitShellTokens } from "./shell-tokens.js";

describe("splitShellTokens", () => {
  it("splits operators from words without spaces", () => {
    expect(splitShellTokens("a&&b|c;d")).toEqual(["a", "&&", "b", "|", "c", ";", "d"]);
  });

  it("splits redirections like 2>&1 into word, operator, word", () => {
    expect(splitShellTokens("cmd 2>&1 >>log")).toEqual(["cmd", "2", ">&", "1", ">>", "log"]);
  });

  it("removes quotes and keeps quoted spaces", () => {
    expect(splitShellTokens(`echo "x y" 'z;w'`)).toEqual(["echo", "x y", "z;w"]);
  });

  it("honours backslash escapes outside quotes", () => {
    expect(splitShellTokens("a\\ b")).toEqual(["a b"]);
  });

  it("keeps a backslash inside double quotes unless it escapes a quote or backslash", () => {
    expect(splitShellTokens(`"a\\"b" "c\\nd"`)).toEqual(['a"b', "c\\nd"]);
  });

  it("returns an empty quoted word", () => {
    expect(splitShellTokens("echo ''")).toEqual(["echo", ""]);
  });

  it("turns newlines into command separators", () => {
    expect(splitShellTokens("a\nb\r\nc")).toEqual(["a", ";", "b", ";", "c"]);
  });

  it("splits parentheses of a command substitution", () => {
    expect(splitShellTokens("echo $(pwd)")).toEqual(["echo", "$", "(", "pwd", ")"]);
  });

  it("falls back to a whitespace split on unbalanced quotes", () => {
    expect(splitShellTokens(`echo "open ; x`)).toEqual(["echo", '"open', ";", "x"]);
  });
});
