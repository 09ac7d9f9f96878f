/**
 * Turns a finished process tree into the `ExecuteResult` agents see: decoded
 * output with host paths mapped back, and DeerFlow's truncation notice.
 */
import type { ExecuteResult } from "../sandbox.js";
import { truncationNotice, type OutputCapture } from "./output-capture.js";
import type { PathRewriter } from "./path-rewrite.js";
import type { ProcessTreeResult } from "./process-tree.js";

/**
 * Renders one capture: decode, map host paths back (dropping a host path cut
 * in half by the cap), then append the notice when bytes were discarded.
 *
 * @param capture - a stream's capture.
 * @param rewriter - maps host paths back; omit when output has none.
 * @returns the text for `stdout` / `stderr`.
 */
function renderCapture(capture: OutputCapture, rewriter?: PathRewriter): string {
  const { text, keptBytes, totalBytes, truncated } = capture.result();
  let out = rewriter === undefined ? text : rewriter.toVirtualText(text);
  if (truncated && rewriter !== undefined) out = rewriter.trimPartialHostPath(out);
  return truncated ? out + truncationNotice(keptBytes, totalBytes) : out;
}

/**
 * Builds the result of a command.
 *
 * @param tree - what `runProcessTree` returned.
 * @param rewriter - see {@link renderCapture}.
 * @returns the `ExecuteResult`.
 */
export function toExecuteResult(tree: ProcessTreeResult, rewriter?: PathRewriter): ExecuteResult {
  return {
    stdout: renderCapture(tree.stdout, rewriter),
    stderr: renderCapture(tree.stderr, rewriter),
    exitCode: tree.exitCode,
    signal: tree.signal,
    timedOut: tree.timedOut,
    truncated: tree.stdout.truncated || tree.stderr.truncated,
  };
}
