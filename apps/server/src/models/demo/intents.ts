/**
 * What the demo model reads from a request: fixed keyword rules, so the same
 * text always gives the same plan.
 */

/** Recognised intents of one user message. */
export interface DemoIntents {
  /** Too short or only punctuation: ask what the user means. */
  readonly ambiguous: boolean;
  /** `ls` of this path. */
  readonly list?: string;
  /** `bash` with this command. */
  readonly run?: string;
  /** `write_file` to this file name under outputs. */
  readonly write?: string;
  /** `read_file` of this path. */
  readonly read?: string;
  /** Topics to delegate with `task` (one call each, in one response). */
  readonly delegate?: readonly string[];
}

const WORKSPACE = "/mnt/user-data/workspace";

/** The first `/mnt/...` path in the text. */
function mentionedPath(text: string): string | undefined {
  return /(\/mnt\/[\w./-]*[\w/])/.exec(text)?.[1];
}

/**
 * True for requests the demo cannot act on: only punctuation (`?`, `??`), or at
 * most two words ending with `?` (`Deploy it?`).
 */
export function isAmbiguous(text: string): boolean {
  const t = text.trim();
  if (t === "") return false;
  if (/^[\s?？!.…]+$/.test(t)) return true;
  return /[?？]$/.test(t) && t.split(/\s+/).length <= 2;
}

function delegateTopics(text: string): string[] {
  // "research A and B in parallel, then ..." → ["A", "B"]; otherwise the whole request is one topic.
  const head = /^(.*?)\bin parallel\b/i.exec(text)?.[1] ?? text;
  const core = head
    .replace(/`[^`]*`/g, " ")
    .replace(/\b(please|can you|could you|using|with|via|the|a|an)\b/gi, " ")
    .replace(/\b(delegate|subagents?|research|investigate|look into|to)\b/gi, " ")
    .replace(/[.!?,;:]+\s*$/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const parts = /\bparallel\b/i.test(text)
    ? core
        .split(/\s*(?:,|\band\b|;)\s*/i)
        .map((p) => p.trim())
        .filter((p) => p.length > 0)
    : [];
  return (parts.length > 1 ? parts.slice(0, 3) : [core || text.trim()]).map((p) => p.slice(0, 200));
}

/**
 * Reads the intents of a request.
 *
 * @param text - the user's message
 * @returns the recognised intents
 */
export function readIntents(text: string): DemoIntents {
  const t = text.trim();
  const path = mentionedPath(t);
  const out: { -readonly [K in keyof DemoIntents]: DemoIntents[K] } = { ambiguous: isAmbiguous(t) };
  if (/\b(ls|list)\b/i.test(t) || /\bshow\b.*\b(files|folder|workspace|outputs|uploads)\b/i.test(t))
    out.list = path ?? WORKSPACE;
  if (/\b(run|execute|exec|bash)\b/i.test(t))
    out.run = /`([^`]+)`/.exec(t)?.[1]?.trim() ?? 'echo "Hello from the DeerFlow sandbox"';
  if (
    /\b(write|save|create)\b/i.test(t) &&
    /\b(file|report|note|notes|document|summary|output)\b|\.\w{2,4}\b/i.test(t)
  ) {
    out.write = /\b([\w-]+\.(?:md|txt|json|csv|html))\b/i.exec(t)?.[1] ?? "demo-report.md";
  }
  if (/\bread\b/i.test(t) && path !== undefined) out.read = path;
  if (/\b(delegate|subagents?|in parallel|parallel)\b/i.test(t)) out.delegate = delegateTopics(t);
  return out;
}
