/**
 * The rules every backend applies to fact input (so the conformance kit can
 * hold them all to one behaviour): content trimmed and non-empty, confidence
 * in 0..1, a known category, duplicates by case-folded content.
 */
import { randomUUID } from "node:crypto";
import { MEMORY_ERROR_TEXT, MemoryError } from "../errors.js";
import {
  FACT_CATEGORIES,
  type FactCategory,
  type FactPatch,
  type FactSourceType,
  type MemoryFact,
  type NewFact,
} from "../types.js";

/** Default confidence of a fact added without one (DeerFlow). */
const DEFAULT_FACT_CONFIDENCE = 0.5;

/** The key duplicates are found by: trimmed, whitespace-collapsed, case-folded content. */
export function factKey(content: string): string {
  return content.trim().replace(/\s+/g, " ").toLocaleLowerCase("en-US");
}

/** A new fact id, `fact_<32 hex>`. */
function newFactId(): string {
  return `fact_${randomUUID().replaceAll("-", "")}`;
}

const FACT_ID = /^[A-Za-z0-9_-]{1,128}$/;
const SOURCE_TYPES = new Set<FactSourceType>(["conversation", "manual", "consolidation", "import", "unknown"]);

/**
 * @param id - a fact id from a caller
 * @returns the id
 * @throws MemoryError `FACT_NOT_FOUND` for an id no fact can have (so a traversal attempt reads as "not found")
 */
export function checkFactId(id: string): string {
  if (!FACT_ID.test(id)) throw new MemoryError("FACT_NOT_FOUND", MEMORY_ERROR_TEXT.notFound(id));
  return id;
}

function checkContent(content: unknown): string {
  if (typeof content !== "string") throw new MemoryError("INVALID_INPUT", MEMORY_ERROR_TEXT.emptyContent);
  const trimmed = content.trim();
  if (trimmed === "") throw new MemoryError("INVALID_INPUT", MEMORY_ERROR_TEXT.emptyContent);
  return trimmed;
}

function checkConfidence(confidence: unknown): number {
  if (typeof confidence !== "number" || !Number.isFinite(confidence) || confidence < 0 || confidence > 1)
    throw new MemoryError("INVALID_INPUT", MEMORY_ERROR_TEXT.invalidConfidence);
  return confidence;
}

function checkCategory(category: unknown): FactCategory {
  if (!FACT_CATEGORIES.includes(category as FactCategory))
    throw new MemoryError(
      "INVALID_INPUT",
      `Invalid fact category ${JSON.stringify(category)}; expected one of ${FACT_CATEGORIES.join(", ")}.`,
    );
  return category as FactCategory;
}

function checkDays(days: unknown): number {
  if (typeof days !== "number" || !Number.isInteger(days) || days < 1)
    throw new MemoryError("INVALID_INPUT", `expectedValidDays must be a positive integer, got ${String(days)}.`);
  return days;
}

/**
 * Builds a stored fact from input.
 *
 * @param input - the fact to add
 * @param now - ISO time of the write
 * @returns the fact with its new id
 * @throws MemoryError `INVALID_INPUT` with DeerFlow's texts for empty content and bad confidence
 */
export function buildFact(input: NewFact, now: string): MemoryFact {
  const content = checkContent(input.content);
  const confidence = checkConfidence(input.confidence ?? DEFAULT_FACT_CONFIDENCE);
  const category = checkCategory(input.category ?? "context");
  return {
    id: newFactId(),
    content,
    category,
    ...(category === "other" && input.categoryExtension !== undefined
      ? { categoryExtension: input.categoryExtension }
      : {}),
    confidence,
    createdAt: now,
    updatedAt: now,
    revision: 1,
    source: input.source ?? { type: "manual" },
    ...(input.sourceError === undefined || input.sourceError.trim() === ""
      ? {}
      : { sourceError: input.sourceError.trim() }),
    ...(input.expectedValidDays === undefined ? {} : { expectedValidDays: checkDays(input.expectedValidDays) }),
  };
}

/**
 * Applies a patch to a fact.
 *
 * @param fact - the stored fact
 * @param patch - changed fields (omitted fields are kept)
 * @param now - ISO time of the write
 * @returns the new fact (`revision` +1 only when content, category or confidence changed)
 * @throws MemoryError `INVALID_INPUT`
 */
export function patchFact(fact: MemoryFact, patch: FactPatch, now: string): MemoryFact {
  const content = patch.content === undefined ? fact.content : checkContent(patch.content);
  const confidence = patch.confidence === undefined ? fact.confidence : checkConfidence(patch.confidence);
  const category = patch.category === undefined ? fact.category : checkCategory(patch.category);
  const material = content !== fact.content || confidence !== fact.confidence || category !== fact.category;
  return {
    ...fact,
    content,
    confidence,
    category,
    ...(patch.lastConfirmedAt === undefined ? {} : { lastConfirmedAt: patch.lastConfirmedAt }),
    ...(patch.confirmationCount === undefined ? {} : { confirmationCount: patch.confirmationCount }),
    ...(patch.expectedValidDays === undefined ? {} : { expectedValidDays: checkDays(patch.expectedValidDays) }),
    updatedAt: now,
    revision: material ? fact.revision + 1 : fact.revision,
  };
}

/**
 * Reads a stored or imported value as a fact.
 *
 * @param value - anything
 * @returns the fact, or `undefined` when the value is not one
 */
export function parseStoredFact(value: unknown): MemoryFact | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v["id"] !== "string" || !FACT_ID.test(v["id"])) return undefined;
  if (typeof v["content"] !== "string" || v["content"].trim() === "") return undefined;
  if (typeof v["confidence"] !== "number" || !(v["confidence"] >= 0 && v["confidence"] <= 1)) return undefined;
  if (!FACT_CATEGORIES.includes(v["category"] as FactCategory)) return undefined;
  const source = v["source"] as { type?: unknown; threadId?: unknown } | null | undefined;
  if (typeof source === "object" && source !== null && SOURCE_TYPES.has(source.type as FactSourceType))
    return v as unknown as MemoryFact;
  // DeerFlow's wire format flattens the source to a string (the thread id, or the type).
  const flat = typeof source === "string" ? source : "import";
  return {
    ...(v as unknown as MemoryFact),
    source: SOURCE_TYPES.has(flat as FactSourceType)
      ? { type: flat as FactSourceType }
      : { type: "conversation", threadId: flat },
  };
}
