/**
 * Key paths as operators read them: `models[0].api_key`,
 * `subagents.custom_agents.researcher.tools[1]`.
 */

/** One step of a key path: an object key or an array index. */
export type KeySegment = string | number;

const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

/**
 * Formats a key path.
 *
 * @param segments - keys and indexes from the document root
 * @returns e.g. `models[0].api_key`; `""` for the root
 */
export function formatKeyPath(segments: readonly KeySegment[]): string {
  let out = "";
  for (const s of segments) {
    if (typeof s === "number") out += `[${s}]`;
    else if (PLAIN_KEY.test(s)) out += out === "" ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/**
 * Turns an ajv `instancePath` (a JSON Pointer) into segments, using the data
 * to tell array indexes from numeric object keys.
 *
 * @param pointer - e.g. `/models/0/api_key`
 * @param data - the validated document
 * @returns the segments
 */
export function pointerToSegments(pointer: string, data: unknown): KeySegment[] {
  if (pointer === "") return [];
  const segments: KeySegment[] = [];
  let node: unknown = data;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node) && /^\d+$/.test(key)) {
      const index = Number(key);
      segments.push(index);
      node = node[index];
    } else {
      segments.push(key);
      node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return segments;
}
