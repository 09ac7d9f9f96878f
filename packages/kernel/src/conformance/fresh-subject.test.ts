import { describe, expect, it } from "vitest";
import type { ConformanceIt } from "./conformance-runner.js";
import { errorCodeOf, freshSubjectTest } from "./fresh-subject.js";

/** An `it` that records tests so they can be run by hand. */
function recordingIt(): {
  it: ConformanceIt;
  tests: { name: string; body: () => Promise<void>; timeout?: number | undefined }[];
} {
  const tests: { name: string; body: () => Promise<void>; timeout?: number | undefined }[] = [];
  const it = Object.assign(
    (name: string, body: () => Promise<void>, timeout?: number) => void tests.push({ name, body, timeout }),
    { skip: () => {} },
  ) as ConformanceIt;
  return { it, tests };
}

describe("freshSubjectTest", () => {
  it("gives each test its own subject and cleans it up after, also when the body throws", async () => {
    const { it: recIt, tests } = recordingIt();
    const events: string[] = [];
    let made = 0;
    const test = freshSubjectTest(
      recIt,
      async () => {
        const id = ++made;
        events.push(`make ${id}`);
        return { subject: `s${id}`, cleanup: async () => void events.push(`cleanup ${id}`) };
      },
      (handle) => handle.subject,
      1234,
    );
    test("passes", async (subject) => void events.push(`body ${subject}`));
    test("fails", async (subject) => {
      events.push(`body ${subject}`);
      throw new Error("boom");
    });
    expect(tests.map((t) => [t.name, t.timeout])).toEqual([
      ["passes", 1234],
      ["fails", 1234],
    ]);
    expect(made).toBe(0);
    await tests[0]!.body();
    await expect(tests[1]!.body()).rejects.toThrow("boom");
    expect(events).toEqual(["make 1", "body s1", "cleanup 1", "make 2", "body s2", "cleanup 2"]);
  });

  it("works with a handle without cleanup", async () => {
    const { it: recIt, tests } = recordingIt();
    const seen: number[] = [];
    freshSubjectTest(
      recIt,
      async () => ({ value: 7 }),
      (h) => h.value,
      10,
    )("t", async (v) => void seen.push(v));
    await tests[0]!.body();
    expect(seen).toEqual([7]);
  });
});

describe("errorCodeOf", () => {
  it("names a resolution, an error code, an error message, and a thrown non-error", async () => {
    expect(await errorCodeOf(Promise.resolve(1))).toBe("resolved");
    expect(await errorCodeOf(Promise.reject(Object.assign(new Error("m"), { code: "AGENT_EXISTS" })))).toBe(
      "AGENT_EXISTS",
    );
    expect(await errorCodeOf(Promise.reject(new Error("plain message")))).toBe("plain message");
    expect(await errorCodeOf(Promise.reject("a string"))).toBe("a string");
    expect(await errorCodeOf(Promise.reject(null))).toBe("null");
  });
});
