/**
 * Parsing a moderator's reply into a decision. Models wrap JSON in fences or
 * prose, so the object is found by a full parse first and a string-aware,
 * brace-balanced extraction second.
 */
import type { ModerationResult } from "../types.js";

/** Reason used when the model gives none. */
export const NO_REASON = "No reason provided.";

const FENCE = /^```(?:json)?\s*\n?([\s\S]*?)\n?\s*```$/;

function tryParse(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * Extracts the first JSON value of a reply: fences stripped, full parse, else
 * the first brace-balanced `{…}` (braces inside strings ignored).
 *
 * @param raw - the model's text.
 * @returns the parsed value, or `undefined` when nothing parses.
 */
export function extractJsonObject(raw: string): unknown {
  let text = raw.trim();
  const fence = FENCE.exec(text);
  if (fence !== null) text = (fence[1] ?? "").trim();
  const whole = tryParse(text);
  if (whole !== undefined) return whole.value;
  const start = text.indexOf("{");
  if (start === -1) return undefined;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (escaped) {
      escaped = false;
      continue;
    }
    if (ch === "\\") {
      escaped = true;
      continue;
    }
    if (ch === '"') {
      inString = !inString;
      continue;
    }
    if (inString) continue;
    if (ch === "{") depth++;
    else if (ch === "}") {
      depth--;
      if (depth === 0) return tryParse(text.slice(start, i + 1))?.value;
    }
  }
  return undefined;
}

/**
 * Parses a reply into a {@link ModerationResult}: the decision is lower-cased
 * and must be allow, warn or block; a missing or empty reason becomes
 * {@link NO_REASON}.
 *
 * @param raw - the model's text.
 * @returns the result, or `null` when the reply is unparseable.
 */
export function parseModerationReply(raw: string): ModerationResult | null {
  const value = extractJsonObject(raw);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const decision = String(record["decision"] ?? "").toLowerCase();
  if (decision !== "allow" && decision !== "warn" && decision !== "block") return null;
  const reason = record["reason"];
  if (!reason) return { decision, reason: NO_REASON };
  return { decision, reason: typeof reason === "string" ? reason : JSON.stringify(reason) };
}
