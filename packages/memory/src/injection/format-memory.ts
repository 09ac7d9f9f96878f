/**
 * The memory text injected into a conversation (DeerFlow §4.5):
 *
 * ```
 * User Context:
 * - Work: …
 * - Personal: …
 * - Current Focus: …
 * History:
 * - Recent: …
 * - Earlier: …
 * - Background: …
 * Facts:
 * - [category | 0.90] content (avoid: <sourceError>)
 * ```
 *
 * Everything is HTML-escaped. Facts in the guaranteed categories are chosen
 * first, highest confidence first, from their own `guaranteedTokenBudget`;
 * then every other fact by confidence while the whole text stays within
 * `maxInjectionTokens`. A fact that does not fit is skipped (a shorter one
 * after it may still fit).
 */
import { byConfidence } from "../document.js";
import { escapeText } from "../escape.js";
import type { FactCategory, MemoryDocument, MemoryFact } from "../types.js";

/** Counts tokens of a text. */
export type TokenCounter = (text: string) => number;

/** DeerFlow's `char` counting: about four characters a token. */
export const countTokensByChars: TokenCounter = (text) => Math.ceil(text.length / 4);

/** Budget of {@link formatMemory}. */
export interface MemoryFormatOptions {
  readonly maxInjectionTokens: number;
  readonly guaranteedCategories: readonly FactCategory[];
  readonly guaranteedTokenBudget: number;
  /** Default {@link countTokensByChars}. */
  readonly countTokens?: TokenCounter;
}

function factLine(f: MemoryFact): string {
  const avoid =
    f.category === "correction" && f.sourceError !== undefined ? ` (avoid: ${escapeText(f.sourceError)})` : "";
  return `- [${f.category} | ${f.confidence.toFixed(2)}] ${escapeText(f.content)}${avoid}`;
}

function block(title: string, rows: readonly [string, string][]): string[] {
  const lines = rows.filter(([, v]) => v.trim() !== "").map(([k, v]) => `- ${k}: ${escapeText(v.trim())}`);
  return lines.length === 0 ? [] : [`${title}:`, ...lines];
}

/**
 * @param doc - the scope's memory
 * @param options - the token budget
 * @returns the text, or "" when there is nothing to inject
 */
export function formatMemory(doc: MemoryDocument, options: MemoryFormatOptions): string {
  const count = options.countTokens ?? countTokensByChars;
  const head = [
    ...block("User Context", [
      ["Work", doc.user.workContext.summary],
      ["Personal", doc.user.personalContext.summary],
      ["Current Focus", doc.user.topOfMind.summary],
    ]),
    ...block("History", [
      ["Recent", doc.history.recentMonths.summary],
      ["Earlier", doc.history.earlierContext.summary],
      ["Background", doc.history.longTermBackground.summary],
    ]),
  ];
  // Summaries longer than the whole budget lose their last lines (the facts still compete for the rest).
  while (head.length > 0 && count(head.join("\n")) > options.maxInjectionTokens) head.pop();
  if (head.length > 0 && head.at(-1)?.endsWith(":") === true) head.pop();
  let used = head.length === 0 ? 0 : count(head.join("\n"));
  const facts = doc.facts.filter((f) => typeof f.content === "string" && f.content.trim() !== "").sort(byConfidence);
  const guaranteed = new Set(options.guaranteedCategories);
  const chosen = new Map<MemoryFact, string>();
  const header = count("\nFacts:");
  // No fact line is shorter than "- [goal | 0.00] x": with less room than that, stop scanning.
  const smallest = count("\n- [goal | 0.00] x");
  const room = (): number => options.maxInjectionTokens - used - header;
  const measured = new Map<MemoryFact, readonly [string, number]>();
  const measure = (f: MemoryFact): readonly [string, number] => {
    let m = measured.get(f);
    if (m === undefined) {
      const line = factLine(f);
      m = [line, count(`\n${line}`)];
      measured.set(f, m);
    }
    return m;
  };
  let guaranteedUsed = 0;
  for (const f of facts) {
    if (!guaranteed.has(f.category)) continue;
    if (room() < smallest || options.guaranteedTokenBudget - guaranteedUsed < smallest) break;
    const [line, cost] = measure(f);
    if (guaranteedUsed + cost > options.guaranteedTokenBudget || cost > room()) continue;
    guaranteedUsed += cost;
    used += cost;
    chosen.set(f, line);
  }
  for (const f of facts) {
    if (room() < smallest) break;
    if (chosen.has(f)) continue;
    const [line, cost] = measure(f);
    if (cost > room()) continue;
    used += cost;
    chosen.set(f, line);
  }
  const lines =
    chosen.size === 0 ? head : [...head, "Facts:", ...facts.filter((f) => chosen.has(f)).map((f) => chosen.get(f))];
  return lines.join("\n");
}
