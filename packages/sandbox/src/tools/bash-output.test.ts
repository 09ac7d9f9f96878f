import { describe, expect, it } from "vitest";
import type { ExecuteResult } from "../sandbox.js";
import { formatExecuteResult, formatTimeoutDuration, formatTimeoutNotice, redactSecrets } from "./bash-output.js";

const result = (over: Partial<ExecuteResult>): ExecuteResult => ({
  stdout: "",
  stderr: "",
  exitCode: 0,
  signal: null,
  timedOut: false,
  truncated: false,
  ...over,
});

describe("formatExecuteResult", () => {
  it("returns stdout alone for a successful command", () => {
    expect(formatExecuteResult(result({ stdout: "hi\n" }), 1000)).toBe("hi\n");
  });

  it("appends stderr under a Std Error header", () => {
    expect(formatExecuteResult(result({ stdout: "out", stderr: "err" }), 1000)).toBe("out\nStd Error:\nerr");
  });

  it("returns stderr alone when there is no stdout", () => {
    expect(formatExecuteResult(result({ stderr: "err" }), 1000)).toBe("err");
  });

  it("appends a non-zero exit code", () => {
    expect(formatExecuteResult(result({ stdout: "x", exitCode: 3 }), 1000)).toBe("x\nExit Code: 3");
  });

  it("reports a signal death as a negative code", () => {
    expect(formatExecuteResult(result({ exitCode: null, signal: "SIGKILL" }), 1000)).toBe("\nExit Code: -9");
  });

  it("appends the timeout notice instead of an exit code", () => {
    expect(
      formatExecuteResult(result({ stdout: "partial", exitCode: null, signal: "SIGKILL", timedOut: true }), 600_000),
    ).toBe(`partial\n${formatTimeoutNotice(600_000)}`);
  });

  it("returns the timeout notice alone when nothing was printed", () => {
    expect(formatExecuteResult(result({ timedOut: true, exitCode: null }), 1000)).toBe(formatTimeoutNotice(1000));
  });

  it("says (no output) for a silent success", () => {
    expect(formatExecuteResult(result({}), 1000)).toBe("(no output)");
  });
});

describe("formatTimeoutNotice", () => {
  it("uses DeerFlow's exact text with the background hint", () => {
    expect(formatTimeoutNotice(600_000)).toBe(
      "Command timed out after 600 seconds and was terminated. To run a long-lived process such as a web server, start it in the background and redirect its output, e.g. `your-command > /mnt/user-data/workspace/server.log 2>&1 &`.",
    );
  });
});

describe("formatTimeoutDuration", () => {
  it("uses the singular for exactly one second", () => {
    expect(formatTimeoutDuration(1000)).toBe("1 second");
  });

  it("keeps decimals and the plural for fractions", () => {
    expect(formatTimeoutDuration(1500)).toBe("1.5 seconds");
  });

  it("prints whole numbers without decimals", () => {
    expect(formatTimeoutDuration(2000)).toBe("2 seconds");
  });
});

describe("redactSecrets", () => {
  it("redacts values of eight or more characters", () => {
    expect(redactSecrets("token=abcdefgh!", { T: "abcdefgh" })).toBe("token=[redacted]!");
  });

  it("leaves values shorter than eight characters alone", () => {
    expect(redactSecrets("code 1234567 ok", { PIN: "1234567" })).toBe("code 1234567 ok");
  });

  it("redacts the longest value first so a containing secret is not revealed in part", () => {
    expect(redactSecrets("key=supersecret-extended", { A: "supersecret", B: "supersecret-extended" })).toBe(
      "key=[redacted]",
    );
  });

  it("treats regex characters in secrets literally", () => {
    expect(redactSecrets("p=a.b*c+d?e(f)", { P: "a.b*c+d?e(f)" })).toBe("p=[redacted]");
  });
});
