/**
 * Plumbing of the run-coordinator conformance kit: the factory contract, the
 * per-test coordinator groups (always closed and cleaned up, even when the
 * test fails), and waiting helpers that poll instead of asserting on time.
 */
import { randomUUID } from "node:crypto";
import type { ConformanceExpect, ConformanceRunner, ConformanceTestContext } from "@deerflow/kernel";
import type { RunCoordinator } from "../../coordination/run-coordinator.js";

/** What the factory given to `runCoordinatorConformance` returns. */
export interface RunCoordinatorGroup {
  /** `count` coordinators acting as distinct instances of one deployment (distinct `instanceId`s, shared state). */
  readonly coordinators: RunCoordinator[];
  /** Called after the test, once every coordinator was closed (drop keys, connections...). */
  readonly cleanup?: () => Promise<void>;
  /**
   * Deletes the lease of `runId` behind its owner's back, as an operator or a
   * failed-over store would. Enables the lease-loss checks (skipped without it):
   * the owner must notice at its next renewal and report it through `onLeaseLost`.
   */
  readonly breakLease?: (runId: string) => Promise<void>;
}

/**
 * Creates `count` coordinators of one deployment, all with the given lease
 * duration (renewal interval at the implementation's default, or at most a
 * third of the lease). Called once per test.
 */
export type MakeRunCoordinators = (count: number, options: { leaseMs: number }) => Promise<RunCoordinatorGroup>;

/** The test functions the run-coordinator kit takes: vitest's or jest's, or `nodeTestRunner(nodeTest)`. */
export type RunCoordinatorRunner = ConformanceRunner;

/** The one argument of `runCoordinatorConformance`: what to test, with which test functions. */
export interface RunCoordinatorConformanceOptions extends RunCoordinatorRunner {
  /** Names the suite (`runCoordinatorConformance: <name>`). */
  readonly name: string;
  /** Creates `count` coordinators with the given `leaseMs`; called by each test. */
  readonly makeCoordinators: MakeRunCoordinators;
  /**
   * Lease duration the coordinators are created with; the checks wait several
   * lease periods, so short is fast. Default 1500 ms.
   */
  readonly leaseMs?: number;
  /** Multiplies every timeout (slow CI machines). Default 1. */
  readonly timeoutScale?: number;
}

/** Kit options after defaults. */
export interface ResolvedOptions {
  readonly leaseMs: number;
  readonly timeoutScale: number;
}

/** Resolves and checks the kit options. @throws TypeError when an option is invalid. */
export function resolveOptions(
  options: Pick<RunCoordinatorConformanceOptions, "leaseMs" | "timeoutScale">,
): ResolvedOptions {
  const leaseMs = options.leaseMs ?? 1_500;
  const timeoutScale = options.timeoutScale ?? 1;
  if (!Number.isInteger(leaseMs) || leaseMs <= 0)
    throw new TypeError(`runCoordinatorConformance: leaseMs must be a positive integer, got ${String(leaseMs)}`);
  if (!Number.isFinite(timeoutScale) || timeoutScale <= 0) {
    throw new TypeError(
      `runCoordinatorConformance: timeoutScale must be a positive number, got ${String(timeoutScale)}`,
    );
  }
  return { leaseMs, timeoutScale };
}

/** What a test body receives. */
interface Scope {
  /** Creates `count` coordinators of one deployment; closed and cleaned up after the test. */
  coordinators(count: number): Promise<RunCoordinator[]>;
  /** The group's `breakLease`; skips the test when the factory did not provide one. */
  breakLease(runId: string): Promise<void>;
  /** Skips the test (an optional feature the implementation does not have); ends its body. */
  skip(reason: string): never;
  /** A run id unique to this kit run. */
  runId(label?: string): string;
  /** The lease duration the coordinators were created with. */
  readonly leaseMs: number;
  /** Polls `check` until it returns true; fails with `what` after `timeoutMs` (default 4 leases). */
  eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs?: number): Promise<void>;
  /** Lets `periods` lease periods pass (so several renewals happen) before checking that nothing changed. */
  leasePeriods(periods: number): Promise<void>;
}

/** Test body. */
type ScopedTest = (scope: Scope) => Promise<void>;

/** Everything a check file registers its tests with. */
export interface Kit {
  readonly options: ResolvedOptions;
  /** The injected `expect`. */
  readonly expect: ConformanceExpect;
  /** Registers a test; `leasePeriods` is roughly how many lease periods it waits (for its timeout). */
  test(name: string, body: ScopedTest, leasePeriods?: number): void;
}

/**
 * Thrown by {@link Scope.skip} to end a skipped test's body: the runner's
 * `context.skip` marked the test skipped (vitest's also throws its own
 * signal first); a runner without one (jest) counts the test as passed.
 */
class SkippedTest extends Error {}

/** Builds the {@link Kit} for one conformance run. */
export function createKit(
  runner: RunCoordinatorRunner,
  makeCoordinators: MakeRunCoordinators,
  options: ResolvedOptions,
): Kit {
  const kitId = randomUUID().slice(0, 8);
  let counter = 0;
  return {
    options,
    expect: runner.expect,
    test(name, body, leasePeriods = 4) {
      const timeout = (30_000 + leasePeriods * 2 * options.leaseMs) * options.timeoutScale;
      // A rest parameter keeps the body's length 0: jest would take a named one for a `done` callback.
      runner.it(
        name,
        async (...args) => {
          const context = args[0];
          const groups: RunCoordinatorGroup[] = [];
          const scope = makeScope(
            context,
            options,
            () => `${kitId}-${++counter}`,
            async (count) => {
              const group = await makeCoordinators(count, { leaseMs: options.leaseMs });
              groups.push(group);
              if (group.coordinators.length !== count) {
                throw new Error(
                  `the factory returned ${group.coordinators.length} coordinators, ${count} were asked for`,
                );
              }
              return group;
            },
          );
          try {
            await body(scope);
          } catch (err) {
            if (!(err instanceof SkippedTest)) throw err;
          } finally {
            for (const group of groups) {
              await Promise.allSettled(group.coordinators.map((c) => c.close()));
              await group.cleanup?.();
            }
          }
        },
        timeout,
      );
    },
  };
}

function makeScope(
  context: ConformanceTestContext | undefined,
  options: ResolvedOptions,
  nextId: () => string,
  make: (count: number) => Promise<RunCoordinatorGroup>,
): Scope {
  let breaker: RunCoordinatorGroup["breakLease"];
  function skip(reason: string): never {
    context?.skip?.(reason);
    throw new SkippedTest(reason);
  }
  return {
    leaseMs: options.leaseMs,
    async coordinators(count) {
      const group = await make(count);
      breaker ??= group.breakLease;
      return group.coordinators;
    },
    async breakLease(runId) {
      if (breaker === undefined) skip("the factory provides no breakLease hook");
      await breaker(runId);
    },
    skip,
    runId: (label = "run") => `${label}-${nextId()}`,
    async eventually(what, check, timeoutMs = 4 * options.leaseMs + 5_000) {
      const deadline = Date.now() + timeoutMs * options.timeoutScale;
      for (;;) {
        if (await check()) return;
        if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
        await sleep(20);
      }
    },
    leasePeriods: (periods) => sleep(periods * options.leaseMs),
  };
}

/** Resolves after `ms`. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Records the calls of a handler. */
export function recorder<Args extends unknown[]>(): { calls: Args[]; handler: (...args: Args) => void } {
  const calls: Args[] = [];
  return { calls, handler: (...args: Args) => void calls.push(args) };
}
