/**
 * Namespaces of the SQLite store as one text column: labels joined with `.`,
 * which `validateNamespace` forbids inside a label, so the encoding is
 * reversible and a namespace prefix is a contiguous key range (`a.b` and
 * everything from `a.b.` up to `a.b/`, `/` being the character after `.`).
 */
import { InvalidNamespaceError, validateNamespace, type MatchCondition } from "@langchain/langgraph-checkpoint";

const SEPARATOR = ".";

/** The column value of a namespace (validated first). */
export function encodeNamespace(namespace: readonly string[], allowEmpty: boolean): string {
  if (!Array.isArray(namespace)) {
    throw new InvalidNamespaceError(`A namespace must be an array of strings, got ${typeof namespace}.`);
  }
  validateNamespace([...namespace], { allowEmpty, allowReservedRoot: true });
  return namespace.join(SEPARATOR);
}

/** The namespace of a column value. */
export function decodeNamespace(encoded: string): string[] {
  return encoded === "" ? [] : encoded.split(SEPARATOR);
}

/** The key range holding a namespace and every namespace under it: `[exact, from, to)`. */
export function prefixRange(encodedPrefix: string): { exact: string; from: string; to: string } {
  return { exact: encodedPrefix, from: `${encodedPrefix}${SEPARATOR}`, to: `${encodedPrefix}/` };
}

/** True when `namespace` satisfies the condition (`*` matches any one label), as LangGraph's stores decide. */
export function matchesCondition(namespace: readonly string[], condition: MatchCondition): boolean {
  const { path, matchType } = condition;
  if (path.length > namespace.length) return false;
  const start = matchType === "prefix" ? 0 : namespace.length - path.length;
  return path.every((label, i) => label === "*" || namespace[start + i] === label);
}
