/**
 * The `filter` of a store search: each entry names a top-level field of the
 * item's value and either a value it must equal or an object of comparison
 * operators (`$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$in`, `$nin`), as
 * LangGraph's `InMemoryStore` and `PostgresStore` read it. Equality is deep
 * (JSON values), where `InMemoryStore` compares objects by reference.
 */
import { RuntimeError } from "../errors.js";

function invalid(message: string): RuntimeError {
  return new RuntimeError("INVALID_ARGUMENT", message);
}

const OPERATORS = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"]);

type Condition = (value: unknown) => boolean;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

function comparable(value: unknown): value is number | string {
  return typeof value === "number" || typeof value === "string";
}

/** Orders like numbers when both are numbers, like strings when both are strings; else not at all. */
function compare(a: unknown, b: unknown): number | undefined {
  if (!comparable(a) || !comparable(b) || typeof a !== typeof b) return undefined;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A value that cannot be ordered against the operand (another type, an object) never matches. */
function ordered(operand: unknown, accept: (comparison: number) => boolean): Condition {
  return (v) => {
    const c = compare(v, operand);
    return c !== undefined && accept(c);
  };
}

function operatorCondition(field: string, op: string, operand: unknown): Condition {
  switch (op) {
    case "$eq":
      return (v) => deepEqual(v, operand);
    case "$ne":
      return (v) => !deepEqual(v, operand);
    case "$gt":
      return ordered(operand, (c) => c > 0);
    case "$gte":
      return ordered(operand, (c) => c >= 0);
    case "$lt":
      return ordered(operand, (c) => c < 0);
    case "$lte":
      return ordered(operand, (c) => c <= 0);
    case "$in":
    case "$nin": {
      if (!Array.isArray(operand)) {
        throw invalid(`Filter operator ${op} of field "${field}" needs an array.`);
      }
      const inList: Condition = (v) => operand.some((x) => deepEqual(v, x));
      return op === "$in" ? inList : (v) => !inList(v);
    }
    default:
      throw invalid(`Unknown filter operator ${op} on field "${field}".`);
  }
}

/**
 * Compiles a search filter.
 *
 * @param filter - field → value or operator object
 * @returns a predicate over an item's value
 * @throws RuntimeError `INVALID_ARGUMENT` for a filter that is not an object,
 *   an unknown `$` operator or a `$in`/`$nin` without an array
 */
export function compileFilter(filter: unknown): (value: Record<string, unknown>) => boolean {
  if (filter === undefined || filter === null) return () => true;
  if (!isPlainObject(filter)) throw invalid("A search filter must be an object.");
  const conditions: Array<[string, Condition]> = [];
  for (const [field, expected] of Object.entries(filter)) {
    const keys = isPlainObject(expected) ? Object.keys(expected) : [];
    if (keys.length > 0 && keys.every((k) => k.startsWith("$"))) {
      const ops = expected as Record<string, unknown>;
      for (const op of keys) {
        if (!OPERATORS.has(op)) throw invalid(`Unknown filter operator ${op} on field "${field}".`);
        conditions.push([field, operatorCondition(field, op, ops[op])]);
      }
    } else conditions.push([field, (v) => deepEqual(v, expected)]);
  }
  return (value) => conditions.every(([field, test]) => test(Object.hasOwn(value, field) ? value[field] : undefined));
}
