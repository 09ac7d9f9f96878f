import { describe, expect, it } from "vitest";
import { pythonViews } from "./python-text.js";
import { shellViews } from "./shell-text.js";

describe("pythonViews", () => {
  it("keeps offsets and blanks comments and string contents in the code view", () => {
    const source = "x = \"a#b\"  # note\ny = '''\nline\n'''\n";
    const views = pythonViews(source);
    expect(views.code.length).toBe(source.length);
    expect(views.code).toBe("x = \"   \"        \ny = '''\n    \n'''\n");
    expect(views.withoutComments).toBe("x = \"a#b\"        \ny = '''\nline\n'''\n");
    expect(views.strings.map((s) => s.value)).toEqual(["a#b", "\nline\n"]);
  });

  it("treats escaped quotes as content and keeps f-string fields as code", () => {
    const views = pythonViews('s = "a\\"b"; f"{eval(x)} {{lit}}"');
    expect(views.strings.map((s) => [s.value, s.formatted])).toEqual([
      ['a\\"b', false],
      ["{eval(x)} {{lit}}", true],
    ]);
    expect(views.code).toContain("{eval(x)}");
    expect(views.code).not.toContain("lit");
  });
});

describe("shellViews", () => {
  it("blanks comments but not quoted hashes, ${#var} or heredoc bodies", () => {
    const script = "echo '#x' ${#a} # c\ncat <<-EOF\n\t# body\n\tEOF\nenv # dump\n";
    const { code, commands } = shellViews(script);
    expect(code).toBe("echo '#x' ${#a}    \ncat <<-EOF\n\t# body\n\tEOF\nenv       \n");
    expect(commands).toBe(`echo '#x' \${#a}    \ncat <<-EOF\n${" ".repeat(7)}\n${" ".repeat(4)}\nenv       \n`);
  });

  it("ends a heredoc on a CRLF delimiter line", () => {
    expect(shellViews("cat <<EOF\r\nbody\r\nEOF\r\nenv\r\n").commands).toBe(
      `cat <<EOF\r\n${" ".repeat(5)}\n${" ".repeat(4)}\nenv\r\n`,
    );
  });

  it("carries quote state across lines", () => {
    expect(shellViews("echo 'a\n# not a comment'\n").code).toBe("echo 'a\n# not a comment'\n");
  });
});
