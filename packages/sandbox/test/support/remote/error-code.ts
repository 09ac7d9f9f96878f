/**
 * The `SandboxError` code a promise rejects with, for tests that compare codes.
 */
import { SandboxError } from "../../../src/errors.js";

/**
 * Awaits a promise and names how it failed.
 *
 * @param promise - The call under test.
 * @returns The rejection's `SandboxError` code, or a text saying it resolved or failed otherwise.
 */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  const err: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return SandboxError.isInstance(err) ? err.code : `no SandboxError: ${String(err)}`;
}
