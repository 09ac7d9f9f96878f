import { describe, expect, it } from "vitest";
import { findHostCommandViolation } from "./host-command-policy.js";

const TAIL = ". Use paths under /mnt/user-data";

describe("findHostCommandViolation", () => {
  describe("accepts", () => {
    it.each([
      "ls -la /mnt/user-data/workspace",
      "cat /mnt/skills/public/pdf/SKILL.md",
      "cat /mnt/acp-workspace/notes.md",
      "cd /mnt/user-data/workspace && python run.py",
      "cd subdir && ls",
      "/usr/bin/env python3 script.py > /dev/null 2>&1",
      "/bin/sh -c 'echo hi'",
      "curl -s https://example.com/a/../b",
      "curl --url=https://example.com/x/../y",
      `python -c "print(f'/端口{port}')"`,
      "echo /devices/{id}/port",
      "grep -rn TODO . | head -20",
      "echo 'cd is just a word here'",
      `echo "unbalanced`,
      "FOO=bar python3 -m http.server 8000 > /mnt/user-data/workspace/server.log 2>&1 &",
    ])("%s", (command) => {
      expect(findHostCommandViolation(command)).toBeNull();
    });

    it("accepts configured extra path families", () => {
      expect(findHostCommandViolation("cat /data/shared/x.csv", { allowedPaths: ["/data/shared"] })).toBeNull();
    });
  });

  describe("rejects", () => {
    it("file:// URLs", () => {
      expect(findHostCommandViolation("curl file:///etc/passwd")).toBe(
        `Unsafe file:// URL in command: file:///etc/passwd${TAIL}`,
      );
    });

    it("file:// URLs in any case", () => {
      expect(findHostCommandViolation("curl FILE:///etc/hosts")).toBe(
        `Unsafe file:// URL in command: FILE:///etc/hosts${TAIL}`,
      );
    });

    it("cd inside a command substitution", () => {
      expect(findHostCommandViolation("echo $(cd /tmp && ls)")).toBe(
        `Unsafe working directory change in command substitution${TAIL}`,
      );
    });

    it.each([
      "cat ../secret.txt",
      "ls foo/../../bar",
      "python x.py --out=../x",
      "cat /mnt/user-data/../etc/passwd",
      "ls ..",
    ])("a .. path segment: %s", (command) => {
      expect(findHostCommandViolation(command)).toBe("Access denied: path traversal detected");
    });

    it.each([
      ["cd", "cd"],
      ["cd -", "cd"],
      ["cd /mnt/user-data/workspace; cd", "cd"],
    ])("cd without a safe target: %s", (command, shown) => {
      expect(findHostCommandViolation(command)).toBe(`Unsafe working directory change in command: ${shown}${TAIL}`);
    });

    it.each([
      ["cd ~", "cd ~"],
      ["cd ~/projects", "cd ~/projects"],
      ["cd $HOME", "cd $HOME"],
      ["cd `pwd`", "cd `pwd`"],
      ["cd /tmp", "cd /tmp"],
      ["cd /", "cd /"],
      ["pushd /etc", "pushd /etc"],
      ["builtin cd /tmp", "cd /tmp"],
      ["command pushd /var", "pushd /var"],
      ["if cd /tmp; then ls; fi", "cd /tmp"],
      ["{ cd /tmp; }", "cd /tmp"],
      ["echo hi\ncd /opt", "cd /opt"],
      ["FOO=1 cd /srv", "cd /srv"],
      ["cd -P /usr/local", "cd /usr/local"],
      ["ls && cd /root", "cd /root"],
    ])("an unsafe working directory change: %s", (command, shown) => {
      expect(findHostCommandViolation(command)).toBe(`Unsafe working directory change in command: ${shown}${TAIL}`);
    });

    it.each(["ls /", "rm -rf /", "find / -name x", "tar -czf out.tgz /", "command ls /"])(
      "a bare / argument: %s",
      (command) => {
        expect(findHostCommandViolation(command)).toBe(`Unsafe absolute paths in command: /${TAIL}`);
      },
    );

    it("absolute paths outside the allowed families, sorted and de-duplicated", () => {
      expect(findHostCommandViolation("cat /var/b /etc/a /var/b")).toBe(
        `Unsafe absolute paths in command: /etc/a, /var/b${TAIL}`,
      );
    });

    it("brace expansion, which builds real host paths", () => {
      expect(findHostCommandViolation("cat /etc/{passwd,shadow}")).toBe(
        `Unsafe absolute paths in command: /etc/{passwd,shadow}${TAIL}`,
      );
    });

    it("variable expansion inside a path", () => {
      expect(findHostCommandViolation("cat /home/${USER}/.ssh/id_rsa")).toBe(
        `Unsafe absolute paths in command: /home/\${USER}/.ssh/id_rsa${TAIL}`,
      );
    });

    it("a sibling that only shares the prefix of an allowed root", () => {
      expect(findHostCommandViolation("ls /mnt/user-data-backup")).toBe(
        `Unsafe absolute paths in command: /mnt/user-data-backup${TAIL}`,
      );
    });

    it("paths just outside a configured family", () => {
      expect(findHostCommandViolation("cat /data/sharedX/a", { allowedPaths: ["/data/shared"] })).toBe(
        `Unsafe absolute paths in command: /data/sharedX/a${TAIL}`,
      );
    });
  });
});

describe("findHostCommandViolation on hostile input", () => {
  it("answers for a 200 KB command of dotted words", () => {
    expect(findHostCommandViolation(`echo ${"a.".repeat(100_000)}x`)).toBeNull();
  });

  it("answers for a 200 KB command of unclosed substitutions", () => {
    expect(findHostCommandViolation(`echo ${"$(".repeat(100_000)}`)).toBeNull();
  });

  it("still finds cd in the last of many substitutions", () => {
    expect(findHostCommandViolation(`echo ${"$(x) ".repeat(10_000)}$(cd /tmp)`)).toBe(
      "Unsafe working directory change in command substitution. Use paths under /mnt/user-data",
    );
  });

  it("skips paths inside many URLs and still reports the path after them", () => {
    const urls = Array.from({ length: 5000 }, (_, i) => `https://h${i}.example/p/q`).join(" ");
    expect(findHostCommandViolation(`curl ${urls} -o /etc/x`)).toBe(
      "Unsafe absolute paths in command: /etc/x. Use paths under /mnt/user-data",
    );
  });
});
