/**
 * The kit's handling of bounds an implementation does not enforce: a declared
 * gap is checked against its documentation, an undeclared one is shown as
 * skipped by name, and contradictory or vague declarations are refused.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Kit, TestBody } from "./context.js";
import { resolveOptions, type SandboxClaims } from "./options.js";
import { resourceBoundTests } from "./resource-bounds.js";

interface Registered {
  readonly name: string;
  readonly runs: boolean;
  readonly body: TestBody;
}

/** Registers the resource-bound checks on a recording kit. */
function register(options: SandboxClaims): Registered[] {
  const registered: Registered[] = [];
  const kit: Kit = {
    options: resolveOptions(options),
    expect,
    sandbox: () => {
      throw new Error("no sandbox in this test");
    },
    dir: (label) => `/mnt/user-data/workspace/${label}`,
    ms: (ms) => ms,
    test: (name, body) => registered.push({ name, runs: true, body }),
    testIf: (condition, name, body) => registered.push({ name, runs: condition, body }),
    redact: (text) => text,
  };
  resourceBoundTests(kit);
  return registered;
}

const dir = await mkdtemp(path.join(os.tmpdir(), "kit-docs-"));
afterAll(() => rm(dir, { recursive: true, force: true }));
const REASON = "Memory is RLIMIT_DATA only on this host: shared memory is not bounded.";

describe("resource bounds in the conformance kit", () => {
  it("checks that a bound declared unenforced is documented in the stated words", async () => {
    const readme = path.join(dir, "README.md");
    await writeFile(readme, `# Limits\n\nMemory is RLIMIT_DATA only on this host:\nshared memory is not bounded.\n`);
    const tests = register({ isolated: true, unenforcedBounds: { memory: { reason: REASON, documentedIn: readme } } });
    const doc = tests.find((t) => t.name.startsWith("memory bound declared unenforced"));
    expect(doc?.runs).toBe(true);
    await doc?.body();
    // The memory hostile cases are not registered to run.
    expect(tests.filter((t) => t.runs && /^(kills|does not let)/.test(t.name))).toEqual([]);
  });

  it("fails the documentation check when the document does not say it", async () => {
    const readme = path.join(dir, "OTHER.md");
    await writeFile(readme, "# Limits\n\nEverything is bounded.\n");
    const tests = register({
      isolated: true,
      unenforcedBounds: { disk: { reason: "No disk quota: a thread can fill the volume.", documentedIn: readme } },
    });
    const doc = tests.find((t) => t.name.startsWith("disk quota bound declared unenforced"));
    await expect(doc?.body()).rejects.toThrow(/does not contain the declared reason/);
    const missing = register({
      isolated: true,
      unenforcedBounds: {
        disk: { reason: "No disk quota: a thread can fill the volume.", documentedIn: path.join(dir, "missing.md") },
      },
    });
    await expect(missing.find((t) => t.name.startsWith("disk quota bound declared"))?.body()).rejects.toThrow(
      /cannot be read/,
    );
  });

  it("shows an unclaimed, undeclared bound as skipped, by name", () => {
    const tests = register({ isolated: true });
    const skipped = tests.filter((t) => !t.runs).map((t) => t.name);
    expect(skipped).toContain(
      "memory bound: NOT CHECKED — claim resourceLimits.memoryBytes, or declare it in unenforcedBounds with where it is documented",
    );
    expect(skipped).toContain(
      "disk quota bound: NOT CHECKED — claim resourceLimits.diskBytes, or declare it in unenforcedBounds with where it is documented",
    );
  });

  it("runs the hostile cases of a claimed bound", () => {
    const tests = register({ isolated: true, resourceLimits: { memoryBytes: 1 << 28, diskBytes: 1 << 27 } });
    expect(tests.filter((t) => t.runs).length).toBe(6);
  });

  it("refuses a bound both claimed and declared unenforced, and a vague or relative declaration", () => {
    expect(() =>
      resolveOptions({
        resourceLimits: { memoryBytes: 1 },
        unenforcedBounds: { memory: { reason: REASON, documentedIn: "/x" } },
      }),
    ).toThrow(/contradicts/);
    expect(() => resolveOptions({ unenforcedBounds: { memory: { reason: "no", documentedIn: "/x" } } })).toThrow(
      /at least 20 characters/,
    );
    expect(() => resolveOptions({ unenforcedBounds: { disk: { reason: REASON, documentedIn: "README.md" } } })).toThrow(
      /absolute path/,
    );
  });
});
