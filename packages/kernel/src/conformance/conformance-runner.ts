/**
 * The test functions a conformance kit is given instead of importing a test
 * framework: vitest's and jest's `describe`, `it`, `expect` and hooks fit these
 * types as they are; `nodeTestRunner` adapts `node:test`.
 */

/** The matchers the kits use (a subset of vitest's and jest's `expect(...)`). */
export interface ConformanceMatchers {
  /** `Object.is` equality. */
  toBe(expected: unknown): void;
  /** Deep equality; properties holding `undefined` and class identity are ignored. */
  toEqual<E = unknown>(expected: E): void;
  /** Deep equality; `undefined` properties and class identity count. */
  toStrictEqual<E = unknown>(expected: E): void;
  /** Every property of `expected` is in the value, recursively (arrays match element by element). */
  toMatchObject<E extends object = object>(expected: E): void;
  toBeNull(): void;
  toBeUndefined(): void;
  toBeDefined(): void;
  toHaveLength(length: number): void;
  /** A string matching the pattern, or containing the substring. */
  toMatch(expected: string | RegExp): void;
  /** A string containing the substring, or an array (iterable) holding the item. */
  toContain(item: unknown): void;
  toBeGreaterThan(bound: number | bigint): void;
  toBeLessThan(bound: number | bigint): void;
  toBeLessThanOrEqual(bound: number | bigint): void;
  toBeInstanceOf(type: abstract new (...args: never[]) => unknown): void;
  /** The same matchers, negated. */
  readonly not: Omit<ConformanceMatchers, "not" | "rejects">;
  /** For a promise: it rejects, with a message containing `expected` (or matching it) when given. */
  readonly rejects: { toThrow(expected?: string | RegExp): Promise<void> };
}

/** `expect(actual, message?)`; the message prefixes the failure. */
export type ConformanceExpect = (actual: unknown, message?: string) => ConformanceMatchers;

/**
 * What a runner passes to a test body. vitest's and `node:test`'s contexts
 * have `skip`; jest passes nothing (a kit then cannot skip from inside a test).
 */
export interface ConformanceTestContext {
  skip?(note?: string): void;
}

/** Registers a test; `timeoutMs` is the test's timeout. */
export interface ConformanceIt {
  (name: string, body: (...context: ConformanceTestContext[]) => Promise<void>, timeoutMs?: number): void;
  /** Registers a test shown as skipped. */
  skip(name: string, body: () => Promise<void>, timeoutMs?: number): void;
}

/** Registers a suite. */
export type ConformanceDescribe = (name: string, body: () => void) => void;

/** Registers a hook; `timeoutMs` is the hook's timeout. */
export type ConformanceHook = (fn: () => Promise<void>, timeoutMs?: number) => void;

/** The hooks a kit may need. */
export type ConformanceHookName = "beforeAll" | "afterAll" | "beforeEach" | "afterEach";

/**
 * The test functions a kit takes: `describe`, `it`, `expect`, plus the hooks
 * named in `Hooks`. Pass vitest's or jest's own functions, or the result of
 * `nodeTestRunner(nodeTest)`.
 */
export type ConformanceRunner<Hooks extends ConformanceHookName = never> = {
  readonly describe: ConformanceDescribe;
  readonly it: ConformanceIt;
  readonly expect: ConformanceExpect;
} & { readonly [K in Hooks]: ConformanceHook };
