/**
 * Input checks and rules shared by every assistant store, so that the memory,
 * SQLite and PostgreSQL stores accept, reject and normalise exactly the same
 * values, and search, sort and merge alike. Everything here is pure.
 */
import { RuntimeError } from "../errors.js";
import { checkId, checkPage, toJsonObject } from "../runs/store-input.js";
import { compareCodePoints, jsonContains } from "../runs/thread-search.js";
import type {
  AssistantFilter,
  AssistantPatch,
  AssistantRecord,
  AssistantScope,
  AssistantSearchQuery,
  AssistantSortField,
  AssistantVersionQuery,
  AssistantVersionRecord,
  CreateAssistantInput,
} from "./assistant-store.js";

/** Longest accepted name or description, in UTF-16 code units (a cap on what one request can make us store). */
const MAX_ASSISTANT_TEXT = 10_000;

const SORT_FIELDS: ReadonlySet<string> = new Set<AssistantSortField>([
  "assistantId",
  "graphId",
  "name",
  "createdAt",
  "updatedAt",
]);

function invalid(message: string, field: string): RuntimeError {
  return new RuntimeError("INVALID_ARGUMENT", message, { details: { field } });
}

function checkText(value: unknown, field: string): string {
  if (typeof value !== "string") throw invalid(`${field} must be a string, got ${typeof value}`, field);
  if (value.length > MAX_ASSISTANT_TEXT)
    throw invalid(`${field} is longer than ${MAX_ASSISTANT_TEXT} characters`, field);
  // The same storability rules as ids (no NUL, no lone surrogate), but an empty text is allowed.
  return value === "" ? value : checkId(value, field);
}

function checkDescription(value: unknown): string | null {
  return value === null ? null : checkText(value, "description");
}

/** The fields of a version a store writes (after validation). */
export interface AssistantContent {
  graphId: string;
  name: string;
  description: string | null;
  config: Record<string, unknown>;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
}

/** A validated {@link CreateAssistantInput} with defaults applied. */
export interface CheckedCreateAssistant extends AssistantContent {
  assistantId: string;
  owner: string;
  ifExists: "raise" | "do_nothing";
}

/**
 * Validates a creation: ids non-empty storable strings, name defaulting to the graph id.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` naming the first bad field.
 */
export function checkCreateAssistant(input: CreateAssistantInput): CheckedCreateAssistant {
  if (typeof input !== "object" || input === null) throw invalid("create input must be an object", "input");
  const graphId = checkId(input.graphId, "graphId");
  const ifExists = input.ifExists ?? "raise";
  if (ifExists !== "raise" && ifExists !== "do_nothing")
    throw invalid(`ifExists must be "raise" or "do_nothing", got ${JSON.stringify(ifExists)}`, "ifExists");
  return {
    assistantId: checkId(input.assistantId, "assistantId"),
    owner: checkId(input.owner, "owner"),
    graphId,
    name: input.name === undefined ? graphId : checkText(input.name, "name"),
    description: input.description === undefined ? null : checkDescription(input.description),
    config: input.config === undefined ? {} : toJsonObject(input.config, "config"),
    context: input.context === undefined ? {} : toJsonObject(input.context, "context"),
    metadata: input.metadata === undefined ? {} : toJsonObject(input.metadata, "metadata"),
    ifExists,
  };
}

/**
 * Validates a patch; what is undefined is kept.
 *
 * @throws RuntimeError `INVALID_ARGUMENT` naming the first bad field.
 */
export function checkAssistantPatch(patch: AssistantPatch): AssistantPatch {
  if (typeof patch !== "object" || patch === null) throw invalid("patch must be an object", "patch");
  const out: AssistantPatch = {};
  if (patch.graphId !== undefined) out.graphId = checkId(patch.graphId, "graphId");
  if (patch.name !== undefined) out.name = checkText(patch.name, "name");
  if (patch.description !== undefined) out.description = checkDescription(patch.description);
  if (patch.config !== undefined) out.config = toJsonObject(patch.config, "config");
  if (patch.context !== undefined) out.context = toJsonObject(patch.context, "context");
  if (patch.metadata !== undefined) out.metadata = toJsonObject(patch.metadata, "metadata");
  return out;
}

/**
 * The content of the next version: the current one with `patch` applied
 * (metadata shallow-merged, every other given field replaced).
 */
export function applyAssistantPatch(current: AssistantContent, patch: AssistantPatch): AssistantContent {
  return {
    graphId: patch.graphId ?? current.graphId,
    name: patch.name ?? current.name,
    description: patch.description === undefined ? current.description : patch.description,
    config: patch.config ?? current.config,
    context: patch.context ?? current.context,
    metadata: patch.metadata === undefined ? current.metadata : { ...current.metadata, ...patch.metadata },
  };
}

/**
 * Validates a scope: exactly `{ owner }` with a storable id, or `{ allOwners: true }`.
 *
 * @returns the owner to filter by, or `undefined` for all owners.
 * @throws RuntimeError `INVALID_ARGUMENT` for anything else (a missing scope never means "all").
 */
export function checkScope(scope: AssistantScope): string | undefined {
  if (typeof scope === "object" && scope !== null) {
    if ("owner" in scope) return checkId(scope.owner, "scope.owner");
    if ("allOwners" in scope && scope.allOwners === true) return undefined;
  }
  throw invalid("scope must be { owner } or { allOwners: true }", "scope");
}

/** A validated filter. */
export interface CheckedAssistantFilter {
  graphId: string | undefined;
  /** Lower-cased. */
  name: string | undefined;
  metadata: Record<string, unknown> | undefined;
}

/** @throws RuntimeError `INVALID_ARGUMENT` naming the bad field. */
export function checkAssistantFilter(filter: AssistantFilter | undefined): CheckedAssistantFilter {
  const f = filter ?? {};
  return {
    graphId: f.graphId === undefined ? undefined : checkId(f.graphId, "graphId"),
    name: f.name === undefined ? undefined : checkText(f.name, "name").toLowerCase(),
    metadata: f.metadata === undefined ? undefined : toJsonObject(f.metadata, "metadata"),
  };
}

/** A validated search with defaults applied (limit 10, offset 0, newest first). */
export interface CheckedAssistantSearch extends CheckedAssistantFilter {
  limit: number;
  offset: number;
  sortBy: AssistantSortField;
  sortOrder: "asc" | "desc";
}

/** @throws RuntimeError `INVALID_ARGUMENT` naming the bad field. */
export function checkAssistantSearch(query: AssistantSearchQuery | undefined): CheckedAssistantSearch {
  const q = query ?? {};
  const sortBy = q.sortBy ?? "createdAt";
  if (!SORT_FIELDS.has(sortBy))
    throw invalid(`sortBy must be one of ${[...SORT_FIELDS].join(", ")}, got ${JSON.stringify(sortBy)}`, "sortBy");
  const sortOrder = q.sortOrder ?? "desc";
  if (sortOrder !== "asc" && sortOrder !== "desc")
    throw invalid(`sortOrder must be "asc" or "desc", got ${JSON.stringify(sortOrder)}`, "sortOrder");
  return { ...checkAssistantFilter(q), ...checkPage(q), sortBy, sortOrder };
}

/** @throws RuntimeError `INVALID_ARGUMENT` naming the bad field. */
export function checkVersionQuery(query: AssistantVersionQuery | undefined): {
  metadata: Record<string, unknown> | undefined;
  limit: number;
  offset: number;
} {
  const q = query ?? {};
  return { metadata: q.metadata === undefined ? undefined : toJsonObject(q.metadata, "metadata"), ...checkPage(q) };
}

/** @throws RuntimeError `INVALID_ARGUMENT` unless `version` is a positive safe integer. */
export function checkVersion(version: unknown): number {
  if (typeof version !== "number" || !Number.isSafeInteger(version) || version < 1)
    throw invalid(`version must be a positive integer, got ${JSON.stringify(version) ?? String(version)}`, "version");
  return version;
}

/** True when `assistant` passes a validated filter (the SQL stores express the same in SQL). */
export function assistantMatches(assistant: AssistantRecord, filter: CheckedAssistantFilter): boolean {
  if (filter.graphId !== undefined && assistant.graphId !== filter.graphId) return false;
  if (filter.name !== undefined && !assistant.name.toLowerCase().includes(filter.name)) return false;
  return filter.metadata === undefined || jsonContains(assistant.metadata, filter.metadata);
}

/** True when a version's metadata contains `metadata`. */
export function versionMatches(
  version: AssistantVersionRecord,
  metadata: Record<string, unknown> | undefined,
): boolean {
  return metadata === undefined || jsonContains(version.metadata, metadata);
}

/** Comparator of a validated search: the sort field, ties broken by `assistantId` in the same direction. */
export function assistantComparator(
  sortBy: AssistantSortField,
  sortOrder: "asc" | "desc",
): (a: AssistantRecord, b: AssistantRecord) => number {
  const sign = sortOrder === "asc" ? 1 : -1;
  return (a, b) => {
    const primary = compareCodePoints(a[sortBy], b[sortBy]);
    return sign * (primary !== 0 ? primary : compareCodePoints(a.assistantId, b.assistantId));
  };
}

/** `ASSISTANT_NOT_FOUND` for an assistant missing or outside the caller's scope. */
export function assistantNotFound(assistantId: string): RuntimeError {
  return new RuntimeError("ASSISTANT_NOT_FOUND", `Assistant ${assistantId} not found`, { details: { assistantId } });
}

/** `ASSISTANT_NOT_FOUND` for an unknown version of a visible assistant. */
export function assistantVersionNotFound(assistantId: string, version: number): RuntimeError {
  return new RuntimeError("ASSISTANT_NOT_FOUND", `Assistant ${assistantId} has no version ${version}`, {
    details: { assistantId, version },
  });
}

/** `ASSISTANT_EXISTS` for creating an assistant whose id is taken. */
export function assistantExists(assistantId: string): RuntimeError {
  return new RuntimeError("ASSISTANT_EXISTS", `Assistant ${assistantId} already exists`, { details: { assistantId } });
}
