/**
 * `assertExpect`: the kits' matchers on `node:assert`, for runners without an
 * `expect` of their own (`node:test`). Semantics follow vitest's where the kits
 * depend on them: `toEqual` ignores `undefined` properties and class identity,
 * `toStrictEqual` does not, `toMatchObject` checks a recursive subset.
 */
import assert from "node:assert/strict";
import { inspect } from "node:util";
import type { ConformanceExpect, ConformanceMatchers } from "./conformance-runner.js";

/** One matcher's verdict: `pass`, and what was expected (for the failure message). */
interface Verdict {
  readonly pass: boolean;
  readonly expectation: string;
}

type Check = (actual: unknown, arg: unknown) => Verdict;

const show = (value: unknown): string => inspect(value, { depth: 8, breakLength: Infinity });

/** A plain, comparable copy: plain objects for class instances, no `undefined` properties, Buffers as Uint8Array. */
function loose(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return Array.from(value, loose);
  if (Buffer.isBuffer(value)) return new Uint8Array(value);
  if (
    ArrayBuffer.isView(value) ||
    value instanceof Date ||
    value instanceof RegExp ||
    value instanceof Map ||
    value instanceof Set ||
    value instanceof Error
  )
    return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = loose(item);
  return out;
}

function isDeepEqual(actual: unknown, expected: unknown): boolean {
  try {
    assert.deepStrictEqual(actual, expected);
    return true;
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !ArrayBuffer.isView(value) &&
    !(value instanceof Date) &&
    !(value instanceof RegExp)
  );
}

function matchesSubset(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected))
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, i) => matchesSubset(actual[i], item))
    );
  if (isRecord(expected) && !(expected instanceof Map) && !(expected instanceof Set)) {
    if (!isRecord(actual)) return false;
    return Object.keys(expected).every((key) => key in actual && matchesSubset(actual[key], expected[key]));
  }
  return isDeepEqual(loose(actual), loose(expected));
}

function compare(
  actual: unknown,
  bound: unknown,
  holds: (a: number | bigint, b: number | bigint) => boolean,
  words: string,
): Verdict {
  const comparable =
    (typeof actual === "number" || typeof actual === "bigint") &&
    (typeof bound === "number" || typeof bound === "bigint");
  return { pass: comparable && holds(actual, bound), expectation: `${words} ${show(bound)}` };
}

function messageMatches(err: unknown, expected: unknown): boolean {
  if (expected === undefined) return true;
  const message = err instanceof Error ? err.message : String(err);
  return expected instanceof RegExp
    ? new RegExp(expected.source, expected.flags.replace("g", "")).test(message)
    : message.includes(String(expected));
}

const CHECKS: Record<Exclude<keyof ConformanceMatchers, "not" | "rejects">, Check> = {
  toBe: (a, e) => ({ pass: Object.is(a, e), expectation: `to be ${show(e)}` }),
  toEqual: (a, e) => ({ pass: isDeepEqual(loose(a), loose(e)), expectation: `to equal ${show(e)}` }),
  toStrictEqual: (a, e) => ({ pass: isDeepEqual(a, e), expectation: `to strictly equal ${show(e)}` }),
  toMatchObject: (a, e) => ({ pass: matchesSubset(a, e), expectation: `to match object ${show(e)}` }),
  toBeNull: (a) => ({ pass: a === null, expectation: "to be null" }),
  toBeUndefined: (a) => ({ pass: a === undefined, expectation: "to be undefined" }),
  toBeDefined: (a) => ({ pass: a !== undefined, expectation: "to be defined" }),
  toHaveLength: (a, n) => ({
    pass: a !== null && a !== undefined && (a as { length?: unknown }).length === n,
    expectation: `to have length ${show(n)}`,
  }),
  toMatch: (a, e) => ({ pass: typeof a === "string" && messageMatches(a, e), expectation: `to match ${show(e)}` }),
  toContain: (a, item) => ({
    pass:
      typeof a === "string"
        ? a.includes(String(item))
        : a !== null &&
          typeof a === "object" &&
          Symbol.iterator in a &&
          Array.from(a as Iterable<unknown>).includes(item),
    expectation: `to contain ${show(item)}`,
  }),
  toBeGreaterThan: (a, b) => compare(a, b, (x, y) => x > y, "to be greater than"),
  toBeLessThan: (a, b) => compare(a, b, (x, y) => x < y, "to be less than"),
  toBeLessThanOrEqual: (a, b) => compare(a, b, (x, y) => x <= y, "to be less than or equal to"),
  toBeInstanceOf: (a, type) => ({
    pass: typeof type === "function" && a instanceof type,
    expectation: `to be an instance of ${(type as { name?: string }).name ?? show(type)}`,
  }),
};

function fail(actual: unknown, expectation: string, message: string | undefined): never {
  const text = `expected ${show(actual)} ${expectation}`;
  throw new assert.AssertionError({
    message: message === undefined ? text : `${message}: ${text}`,
    actual,
    operator: expectation.split(" ").slice(0, 2).join(" "),
  });
}

function matchers(
  actual: unknown,
  message: string | undefined,
  negated: boolean,
): Omit<ConformanceMatchers, "not" | "rejects"> {
  const entries = Object.entries(CHECKS).map(([name, check]) => [
    name,
    (arg?: unknown) => {
      const verdict = check(actual, arg);
      if (verdict.pass === negated) fail(actual, negated ? `not ${verdict.expectation}` : verdict.expectation, message);
    },
  ]);
  return Object.fromEntries(entries) as Omit<ConformanceMatchers, "not" | "rejects">;
}

/**
 * `expect` on `node:assert`: failures throw `AssertionError`s whose message
 * shows the value and what was expected (prefixed by `message` when given).
 *
 * @example
 * ```ts
 * assertExpect([1, 2], "the list").toHaveLength(2);
 * await assertExpect(Promise.reject(new Error("closed"))).rejects.toThrow(/closed/);
 * ```
 */
export const assertExpect: ConformanceExpect = (actual, message) => ({
  ...matchers(actual, message, false),
  not: matchers(actual, message, true),
  rejects: {
    async toThrow(expected?: string | RegExp): Promise<void> {
      let rejected = false;
      let reason: unknown;
      try {
        await actual;
      } catch (err) {
        rejected = true;
        reason = err;
      }
      if (!rejected) fail(actual, "to reject", message);
      if (!messageMatches(reason, expected)) fail(reason, `to be a rejection matching ${show(expected)}`, message);
    },
  },
});
