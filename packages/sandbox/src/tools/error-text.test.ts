import { describe, expect, it } from "vitest";
import { SandboxError } from "../errors.js";
import { maskHostPaths, sandboxInitErrorText, toolErrorText } from "./error-text.js";

describe("maskHostPaths", () => {
  it("keeps virtual paths and URLs", () => {
    expect(maskHostPaths("open /mnt/user-data/workspace/a via https://example.com/api/v1")).toBe(
      "open /mnt/user-data/workspace/a via https://example.com/api/v1",
    );
  });

  it("hides other absolute paths", () => {
    expect(maskHostPaths("ENOENT: open '/home/alice/.deerflow/users/u/threads/t/x'")).toBe(
      "ENOENT: open '<host path>'",
    );
  });

  it("maps known mounts back to their virtual paths, longest first", () => {
    const mounts = [
      { virtualPath: "/mnt/user-data", hostPath: "/srv/t1", readOnly: false },
      { virtualPath: "/mnt/user-data/workspace", hostPath: "/srv/t1/ws", readOnly: false },
    ];
    expect(maskHostPaths("at /srv/t1/ws/a.py and /srv/t1/uploads/b", mounts)).toBe(
      "at /mnt/user-data/workspace/a.py and /mnt/user-data/uploads/b",
    );
  });

  it("does not map a sibling that only shares a mount's prefix", () => {
    const mounts = [{ virtualPath: "/mnt/user-data", hostPath: "/srv/t1", readOnly: false }];
    expect(maskHostPaths("at /srv/t10/a", mounts)).toBe("at <host path>");
  });
});

describe("toolErrorText", () => {
  it("words NOT_FOUND per tool", () => {
    const err = new SandboxError("NOT_FOUND", "x");
    expect(toolErrorText("ls", err, "/p")).toBe("Error: Directory not found: /p");
    expect(toolErrorText("read_file", err, "/p")).toBe("Error: File not found: /p");
    expect(toolErrorText("str_replace", err, "/p")).toBe("Error: File not found: /p");
    expect(toolErrorText("write_file", err, "/p")).toBe("Error: Failed to write file '/p': SandboxError: x");
  });

  it("maps known mount host paths inside a SandboxError's message", () => {
    const mounts = [{ virtualPath: "/mnt/user-data", hostPath: "/srv/t1", readOnly: false }];
    expect(
      toolErrorText("read_file", new SandboxError("TOO_LARGE", "/srv/t1/workspace/big.bin is too large"), "/p", mounts),
    ).toBe("Error: /mnt/user-data/workspace/big.bin is too large");
  });

  it("passes a bash SandboxError's message through", () => {
    expect(toolErrorText("bash", new SandboxError("TIMEOUT", "Sandbox did not answer"), "")).toBe(
      "Error: Sandbox did not answer",
    );
  });

  it("describes non-Error throwables", () => {
    expect(toolErrorText("ls", "weird", "/p")).toBe("Error: Unexpected error listing directory: string: weird");
  });
});

describe("sandboxInitErrorText", () => {
  it("passes SandboxError messages through and labels others as unexpected", () => {
    expect(sandboxInitErrorText(new SandboxError("UNAVAILABLE", "Sandbox service is down"))).toBe(
      "Error: Sandbox service is down",
    );
    expect(sandboxInitErrorText(new Error("connect ECONNREFUSED 127.0.0.1:8080"))).toBe(
      "Error: Unexpected error initializing sandbox: Error: connect ECONNREFUSED 127.0.0.1:8080",
    );
  });
});
