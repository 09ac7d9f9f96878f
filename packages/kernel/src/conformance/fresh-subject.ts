/**
 * The scaffolding of the kits whose tests each make their own subject (a
 * store, a backend) and clean it up afterwards, without hooks: the agent-store
 * and memory-backend kits share it, as they share {@link errorCodeOf}.
 */
import type { ConformanceIt } from "./conformance-runner.js";

/** What a kit's factory may return beside the subject: what to do after the test. */
export interface FreshSubjectHandle {
  /** Called after the test, whether it passed or failed. */
  readonly cleanup?: () => Promise<void>;
}

/** Registers one test on a fresh subject. */
export type FreshSubjectTest<Subject> = (name: string, body: (subject: Subject) => Promise<void>) => void;

/**
 * Wraps a runner's `it` so that each test gets a subject from `make` and its
 * handle is cleaned up after the body, even when the body throws.
 *
 * @param it - The runner's `it`.
 * @param make - The kit's factory, called once per test.
 * @param subjectOf - Picks the subject out of the factory's handle.
 * @param timeoutMs - Each test's timeout.
 */
export function freshSubjectTest<Handle extends object, Subject>(
  it: ConformanceIt,
  make: () => Promise<Handle>,
  subjectOf: (handle: Handle) => Subject,
  timeoutMs: number,
): FreshSubjectTest<Subject> {
  return (name, body) =>
    it(
      name,
      async () => {
        const handle = await make();
        try {
          await body(subjectOf(handle));
        } finally {
          await (handle as FreshSubjectHandle).cleanup?.();
        }
      },
      timeoutMs,
    );
}

/**
 * Settles `work` and names the outcome, so a kit can compare outcomes with
 * plain equality (`["resolved", "AGENT_EXISTS", ...]`): `"resolved"`, else
 * the error's `code`, else its message.
 */
export async function errorCodeOf(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return "resolved";
  } catch (err) {
    const code = (err as { code?: unknown } | null)?.code;
    if (code !== undefined) return String(code);
    return err instanceof Error ? err.message : String(err);
  }
}
