/**
 * Symlink-aware containment checks for host paths.
 */
import { promises as fs } from "node:fs";
import { isPathInside } from "@deerflow/kernel";
import { GatewayError } from "../errors.js";
import { TRAVERSAL_MESSAGE } from "./virtual-path.js";

/** @param err - a thrown value. @returns its Node error code, if any. */
export function errnoOf(err: unknown): string | undefined {
  return typeof err === "object" && err !== null && typeof (err as { code?: unknown }).code === "string"
    ? (err as { code: string }).code
    : undefined;
}

/** @param err - a thrown value. @returns whether it means "no such file" (including a file used as a directory). */
export function isMissing(err: unknown): boolean {
  const code = errnoOf(err);
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * Resolves `target` through every symlink and checks it stays below `base`
 * (resolved the same way).
 *
 * @param base - the directory the target must stay in.
 * @param target - a path below `base` (lexically).
 * @param notFound - the error to throw when either does not exist.
 * @returns the canonical target.
 * @throws GatewayError `PATH_TRAVERSAL` when the target resolves outside `base` or loops; `notFound` when missing.
 */
export async function resolveContained(base: string, target: string, notFound: () => Error): Promise<string> {
  let realBase: string;
  let real: string;
  try {
    realBase = await fs.realpath(base);
    real = await fs.realpath(target);
  } catch (err) {
    if (isMissing(err)) throw notFound();
    if (errnoOf(err) === "ELOOP") throw new GatewayError("PATH_TRAVERSAL", TRAVERSAL_MESSAGE);
    throw err;
  }
  if (!isPathInside(real, realBase)) throw new GatewayError("PATH_TRAVERSAL", TRAVERSAL_MESSAGE);
  return real;
}
