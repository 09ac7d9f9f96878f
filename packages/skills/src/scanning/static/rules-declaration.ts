/**
 * Declaration rules: what a SKILL.md *says* it will make the agent do. They run
 * on files named SKILL.md only.
 */
import type { Finding } from "../types.js";
import { findingAtMatch, lineAt, makeFinding } from "./catalogue.js";
import { httpUrls, isLocalHost } from "./http-urls.js";

const PROMPT_OVERRIDE =
  /\b(?:ignore|disregard)\s+(?:all\s+)?(?:previous|prior)\s+instructions\b|\boverride\s+(?:the\s+)?(?:system|developer)\s+instructions\b/i;
const SENSITIVE_CAPABILITY =
  /\bexecute\s+(?:arbitrary\s+)?commands?\b|\bshell\s+commands?\b|\bcredential\s+access\b|\bread\s+secrets?\b|\barbitrary\s+network\b|\bnetwork\s+egress\b/i;
const SENSITIVE_PATH = /~\/\.ssh|\/etc\/passwd|\/etc\/shadow|docker\.sock|169\.254\.169\.254/;

/**
 * Runs the declaration rules over a SKILL.md: prompt override phrases,
 * sensitive capabilities, sensitive host paths and the first non-local
 * cleartext endpoint.
 *
 * @param relPath - package-relative path of the SKILL.md.
 * @param text - its content.
 * @returns at most one finding per rule.
 */
export function declarationFindings(relPath: string, text: string): Finding[] {
  const findings: Finding[] = [];
  for (const [ruleId, pattern] of [
    ["declaration-prompt-override", PROMPT_OVERRIDE],
    ["declaration-sensitive-capability", SENSITIVE_CAPABILITY],
    ["declaration-sensitive-path", SENSITIVE_PATH],
  ] as const) {
    const match = pattern.exec(text);
    if (match !== null) findings.push(findingAtMatch(ruleId, relPath, text, match));
  }
  for (const url of httpUrls(text)) {
    if (isLocalHost(url.host)) continue;
    findings.push(
      makeFinding("declaration-external-endpoint", {
        file: relPath,
        line: lineAt(text, url.index),
        evidence: url.display,
      }),
    );
    break;
  }
  return findings;
}
