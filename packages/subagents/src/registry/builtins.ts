/**
 * The two built-in subagents. Prompts are our own wording of DeerFlow's intent:
 * work autonomously, never ask for clarification, no `task` tool, report results.
 */
import type { SubagentConfig } from "../types.js";

/** Tools every built-in denies: delegation and lead-only interaction tools. */
export const BUILTIN_DISALLOWED_TOOLS: readonly string[] = Object.freeze([
  "task",
  "ask_clarification",
  "present_files",
]);

/** Default wall clock of built-ins (DeerFlow's app-level `timeout_seconds=1800`). */
export const BUILTIN_TIMEOUT_MS = 1_800_000;

/** Shell and file tools the `bash` subagent may use. */
export const BASH_SUBAGENT_TOOLS: readonly string[] = Object.freeze([
  "bash",
  "ls",
  "read_file",
  "write_file",
  "str_replace",
  "glob",
  "grep",
]);

const PATHS = [
  "Files live under /mnt/user-data: uploads/ (user files, read-only), workspace/ (your working directory) and outputs/ (deliverables).",
  "Prefer paths relative to the workspace.",
].join(" ");

const GENERAL_PURPOSE_PROMPT = `You are a general-purpose subagent working on one delegated task for a lead agent.

- Work autonomously until the task is done. Never ask for clarification: make a reasonable assumption, state it, and continue.
- The \`task\` tool is NOT available to you; you cannot delegate further.
- Edit files with \`str_replace\` where possible; write large files in chunks by appending with \`write_file\`.
- ${PATHS}

Finish with a concise report: a summary, the key findings, the paths of any files you created or changed, open issues, and sources cited as [citation:Title](URL).`;

const BASH_PROMPT = `You are a command execution specialist working on one delegated task for a lead agent.

- Run the commands needed to complete the task and report what happened, including relevant stdout and stderr.
- Be careful with destructive operations (deleting, overwriting, force flags): only run them when the task clearly requires it.
- Never ask for clarification and do not delegate: the \`task\` tool is NOT available to you.
- ${PATHS}

Finish with a short report of the commands run, their outcome, and any files produced.`;

/** `general-purpose`: every parent tool except the denied ones. */
export const GENERAL_PURPOSE_SUBAGENT: SubagentConfig = Object.freeze({
  name: "general-purpose",
  description:
    "A capable agent for complex, multi-step tasks that need exploration and action. Use it for research, analysis and file work that can run independently.",
  systemPrompt: GENERAL_PURPOSE_PROMPT,
  disallowedTools: BUILTIN_DISALLOWED_TOOLS,
  model: "inherit",
  maxTurns: 50,
  timeoutMs: BUILTIN_TIMEOUT_MS,
});

/** `bash`: shell and file tools only; hidden when host shell access is not allowed. */
export const BASH_SUBAGENT: SubagentConfig = Object.freeze({
  name: "bash",
  description:
    "A command execution specialist for running shell commands and inspecting their output. Use it for builds, tests, git and file operations.",
  systemPrompt: BASH_PROMPT,
  tools: BASH_SUBAGENT_TOOLS,
  disallowedTools: BUILTIN_DISALLOWED_TOOLS,
  model: "inherit",
  maxTurns: 60,
  timeoutMs: BUILTIN_TIMEOUT_MS,
});

/** Built-ins in listing order. */
export const BUILTIN_SUBAGENTS: readonly SubagentConfig[] = Object.freeze([GENERAL_PURPOSE_SUBAGENT, BASH_SUBAGENT]);
