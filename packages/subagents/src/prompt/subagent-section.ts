/**
 * The lead's `<subagent_system>` prompt section (DeerFlow §3.8, in our own
 * words): benefit-based delegation, hard limits matching the limit
 * middleware, and the available subagents with escaped descriptions.
 */
import type { SubagentConfig } from "../types.js";
import { resolveSubagentLimits } from "../limits/limit-filter.js";

/** Input of {@link renderSubagentSection}. */
export interface SubagentSectionOptions {
  readonly subagents: readonly Pick<SubagentConfig, "name" | "description">[];
  /** Per-response cap (clamped to [1, 4] like the middleware). */
  readonly maxConcurrent?: number;
  /** Per-run cap (clamped to [1, 50] like the middleware). */
  readonly maxTotal?: number;
  /** Whether the lead can run `bash` itself (changes the direct-execution example). */
  readonly bashAvailable: boolean;
}

/**
 * Escapes `&`, `<`, `>`, `"` and `'` so a description cannot close or open prompt tags.
 *
 * @param text - untrusted text
 * @returns the HTML-escaped text
 */
export function escapePromptText(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

function firstLine(text: string): string {
  return text.trim().split(/\r?\n/, 1)[0]?.trim() ?? "";
}

/**
 * Renders the `<subagent_system>` section. Only include it when subagents are enabled.
 *
 * @param options - subagents, caps and bash availability
 * @returns the section text, starting with `<subagent_system>` and ending with `</subagent_system>`
 * @example
 * ```ts
 * renderSubagentSection({ subagents: registry.list(), maxConcurrent: 3, maxTotal: 6, bashAvailable: true });
 * ```
 */
export function renderSubagentSection(options: SubagentSectionOptions): string {
  const { maxConcurrent: n, maxTotal: total } = resolveSubagentLimits(options);
  const parallel = n > 1;
  const direct = options.bashAvailable ? 'bash("npm test")' : 'read_file("/mnt/user-data/workspace/README.md")';
  const list =
    options.subagents.length === 0
      ? "- (none available)"
      : options.subagents
          .map((s) => `- **${escapePromptText(s.name)}**: ${escapePromptText(firstLine(s.description))}`)
          .join("\n");

  const lines: string[] = [
    "<subagent_system>",
    "You can delegate work to subagents with the `task` tool. Each subagent works in a fresh context and only sees the `prompt` you give it.",
    "",
    "**Default to doing the work yourself.** Delegate only when it clearly pays off.",
    "DELEGATION CHECK: delegate if (context saved + time saved" +
      (parallel ? " by running in parallel" : "") +
      ") > (cost of writing a complete brief + waiting + reading the result back).",
    parallel
      ? "Good reasons: several independent, substantial pieces of work that can run side by side, or a large exploration whose details you do not need to keep."
      : "Only one subagent runs per response, so delegation brings no parallel speed-up: use it only to keep a large, self-contained piece of work out of your own context.",
    `Do simple steps directly: for example call ${direct} yourself instead of delegating it.`,
  ];
  if (parallel) {
    lines.push(
      "",
      "Never run tasks in parallel when:",
      "- one task needs another task's output (dependencies between agents), or",
      "- they would write the same files or other shared state (unsafe shared state).",
    );
  }
  lines.push(
    "",
    "HARD LIMITS (enforced: extra calls are dropped):",
    parallel
      ? `- MAXIMUM ${n} task CALLS PER RESPONSE. Put up to ${n} independent task calls in one response.`
      : `- MAXIMUM ${n} task CALLS PER RESPONSE. Call task once, wait for its result, then decide the next step.`,
    `- MAXIMUM ${total} task CALLS PER RUN. Plan the whole run within this budget.`,
    "",
    "Available subagents:",
    list,
    "",
    "Workflow:",
    "1. Decide what you will do directly and what (if anything) is worth delegating.",
    "2. Write each `prompt` as a complete brief: goal, inputs, constraints, and the expected output.",
    parallel ? `3. Launch up to ${n} independent tasks in one response.` : "3. Launch one task.",
    "4. Read the results, verify them, and combine them into your answer.",
  );
  if (parallel) {
    lines.push(
      "",
      `If you need more than ${n} tasks, work in batches: launch up to ${n}, wait for their results, then launch the next batch in a later response (the run total of ${total} still applies).`,
    );
  }
  lines.push(
    "",
    "The `task` tool waits for the subagent to finish and returns its result: there is nothing to poll.",
    "</subagent_system>",
  );
  return lines.join("\n");
}
