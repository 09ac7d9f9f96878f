/**
 * JSON serialisation of stream payloads and thread state.
 *
 * The output is plain JSON data (objects, arrays, strings, finite numbers,
 * booleans, null) that `JSON.stringify` accepts without a replacer:
 *
 * - LangChain messages become the dict shape the LangGraph SDK clients read
 *   (the shape LangGraph's own JS API server emits: `{...message.toDict().data, type}`
 *   with `type` `human` / `ai` / `tool` / `system` / ..., also for chunks —
 *   the SDK's `useStream` accepts both `ai` and `AIMessageChunk`);
 * - `Date` → ISO string, `BigInt` → decimal string, `Map` → object, `Set` → array,
 *   typed arrays → base64, `Error` → `{name, message}`, objects with `toJSON` → its result;
 * - `undefined`, functions and symbols are dropped from objects and become `null` in arrays;
 *   `NaN` / `±Infinity` → `null` (as `JSON.stringify` does);
 * - a reference cycle becomes the string `"[Circular]"` and nesting deeper than
 *   {@link MAX_SERIALIZE_DEPTH} becomes `"[MaxDepth]"`, so hostile state never crashes a run.
 *
 * LangGraph interrupts are plain `{id, value}` objects in LangGraph JS and
 * serialise as such.
 */
import { isBaseMessage, type BaseMessage } from "@langchain/core/messages";

/** Nesting depth beyond which values are replaced by `"[MaxDepth]"`. */
export const MAX_SERIALIZE_DEPTH = 256;

const OMIT: unique symbol = Symbol("omit");

interface WalkContext {
  /** Objects on the current path (not every object seen): shared references serialise twice, cycles once. */
  readonly ancestors: Set<object>;
  /** Values-mode rule: drop inline `data:` images from messages hidden from the UI. */
  readonly stripHiddenImages: boolean;
}

/** Message fields copied when defined, after the ones every message has. */
const OPTIONAL_MESSAGE_FIELDS = [
  "name",
  "tool_calls",
  "invalid_tool_calls",
  "tool_call_chunks",
  "usage_metadata",
  "tool_call_id",
  "status",
  "artifact",
  "role",
] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function messageType(message: BaseMessage): string {
  const raw = (message as unknown as { type?: unknown }).type;
  if (typeof raw === "string") return raw;
  try {
    return message._getType();
  } catch {
    return "unknown";
  }
}

function isDataUrl(value: unknown): boolean {
  return typeof value === "string" && value.trimStart().toLowerCase().startsWith("data:");
}

function isInlineImageBlock(block: unknown): boolean {
  if (typeof block !== "object" || block === null) return false;
  const b = block as Record<string, unknown>;
  if (b["type"] !== "image_url") return false;
  const image = b["image_url"];
  if (isDataUrl(image)) return true;
  return typeof image === "object" && image !== null && isDataUrl((image as Record<string, unknown>)["url"]);
}

/**
 * Values-mode rule: a message whose `additional_kwargs.hide_from_ui` is true
 * loses its `image_url` content blocks that inline a `data:` URL (they can be
 * megabytes and the UI never shows them); other blocks keep their order.
 */
function stripHiddenImages(message: Record<string, unknown>): Record<string, unknown> {
  const kwargs = message["additional_kwargs"];
  if (typeof kwargs !== "object" || kwargs === null || (kwargs as Record<string, unknown>)["hide_from_ui"] !== true)
    return message;
  const content = message["content"];
  if (!Array.isArray(content)) return message;
  return { ...message, content: content.filter((block) => !isInlineImageBlock(block)) };
}

function looksLikeSerializedMessage(value: Record<string, unknown>): boolean {
  return typeof value["type"] === "string" && "content" in value && typeof value["additional_kwargs"] === "object";
}

function toBase64(view: ArrayBufferView): string {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("base64");
}

function walkMessage(message: BaseMessage, ctx: WalkContext, depth: number): Record<string, unknown> {
  const fields = message as unknown as Record<string, unknown>;
  const type = messageType(message);
  const out: Record<string, unknown> = {
    type,
    id: typeof fields["id"] === "string" ? fields["id"] : null,
    content: walkOrNull(fields["content"] ?? "", ctx, depth),
    additional_kwargs: walkOrNull(fields["additional_kwargs"] ?? {}, ctx, depth),
    response_metadata: walkOrNull(fields["response_metadata"] ?? {}, ctx, depth),
  };
  for (const key of OPTIONAL_MESSAGE_FIELDS) {
    let value: unknown;
    try {
      value = fields[key];
    } catch {
      continue;
    }
    if (value === undefined) continue;
    const walked = walk(value, ctx, depth);
    if (walked !== OMIT) out[key] = walked;
  }
  if (type === "ai") {
    // SDK clients index these without checking; LangChain always has them on AI messages.
    out["tool_calls"] ??= [];
    out["invalid_tool_calls"] ??= [];
  }
  return ctx.stripHiddenImages ? stripHiddenImages(out) : out;
}

function walkOrNull(value: unknown, ctx: WalkContext, depth: number): unknown {
  const walked = walk(value, ctx, depth);
  return walked === OMIT ? null : walked;
}

/** Sets a walked value; `defineProperty` for "__proto__" so a hostile key stays data. */
function setWalked(out: Record<string, unknown>, key: string, walked: unknown): void {
  if (walked === OMIT) return;
  if (key === "__proto__")
    Object.defineProperty(out, key, { value: walked, enumerable: true, writable: true, configurable: true });
  else out[key] = walked;
}

function walkEntries(entries: Iterable<[string, unknown]>, ctx: WalkContext, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) setWalked(out, key, walk(value, ctx, depth));
  return out;
}

/** The object's own enumerable string-keyed properties, walked; a throwing getter's key is dropped. */
function walkOwnProperties(
  obj: object,
  ctx: WalkContext,
  depth: number,
  skip?: (key: string) => boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(obj)) {
    if (skip?.(key) === true) continue;
    let value: unknown;
    try {
      value = (obj as Record<string, unknown>)[key];
    } catch {
      continue; // a throwing getter is dropped rather than failing the whole payload
    }
    setWalked(out, key, walk(value, ctx, depth));
  }
  return out;
}

function mapKey(key: unknown): string {
  if (typeof key === "string") return key;
  if (typeof key === "number" || typeof key === "bigint" || typeof key === "boolean") return String(key);
  try {
    return JSON.stringify(serializeValue(key)) ?? String(key);
  } catch {
    return String(key);
  }
}

function walk(value: unknown, ctx: WalkContext, depth: number): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "bigint":
      return value.toString();
    case "undefined":
    case "function":
    case "symbol":
      return OMIT;
    default:
      break;
  }
  if (value === null) return null;
  const obj = value as object;
  if (ctx.ancestors.has(obj)) return "[Circular]";
  if (depth >= MAX_SERIALIZE_DEPTH) return "[MaxDepth]";
  ctx.ancestors.add(obj);
  try {
    return walkObject(obj, ctx, depth + 1);
  } finally {
    ctx.ancestors.delete(obj);
  }
}

function walkObject(obj: object, ctx: WalkContext, depth: number): unknown {
  if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? null : obj.toISOString();
  if (isBaseMessage(obj)) return walkMessage(obj, ctx, depth);
  if (Array.isArray(obj)) {
    return obj.map((item) => {
      const walked = walk(item, ctx, depth);
      return walked === OMIT ? null : walked;
    });
  }
  if (obj instanceof Map)
    return walkEntries(
      [...obj.entries()].map(([k, v]) => [mapKey(k), v] as [string, unknown]),
      ctx,
      depth,
    );
  if (obj instanceof Set) return [...obj].map((item) => walkOrNull(item, ctx, depth));
  if (ArrayBuffer.isView(obj)) return toBase64(obj);
  if (obj instanceof ArrayBuffer) return Buffer.from(obj).toString("base64");
  if (obj instanceof Error) return { name: obj.name, message: obj.message };
  if (obj instanceof RegExp) return String(obj);
  const toJSON = (obj as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") {
    let json: unknown;
    try {
      json = (toJSON as () => unknown).call(obj);
    } catch {
      return "[Unserializable]";
    }
    if (json !== obj) return walk(json, ctx, depth);
  }
  const out = walkOwnProperties(obj, ctx, depth);
  return ctx.stripHiddenImages && looksLikeSerializedMessage(out) ? stripHiddenImages(out) : out;
}

function newContext(stripHiddenImagesFlag: boolean): WalkContext {
  return { ancestors: new Set(), stripHiddenImages: stripHiddenImagesFlag };
}

/**
 * Serialises any value into plain JSON data (see the module notes for the
 * rules). Never throws; `undefined` at the top level becomes `null`.
 *
 * @example
 * ```ts
 * serializeValue({ at: new Date(0), n: 10n, tags: new Set(["a"]) });
 * // { at: "1970-01-01T00:00:00.000Z", n: "10", tags: ["a"] }
 * ```
 */
export function serializeValue(value: unknown): unknown {
  return walkOrNull(value, newContext(false), 0);
}

/**
 * Serialises one LangChain message into the SDK's dict shape:
 * `{type, id, content, additional_kwargs, response_metadata}` plus, when set,
 * `name`, `tool_calls`, `invalid_tool_calls`, `tool_call_chunks`,
 * `usage_metadata`, `tool_call_id`, `status`, `artifact`, `role`.
 * `id` is `null` when the message has none; AI messages always carry
 * `tool_calls` and `invalid_tool_calls` arrays.
 */
export function serializeMessage(message: BaseMessage): Record<string, unknown> {
  const ctx = newContext(false);
  ctx.ancestors.add(message);
  return walkMessage(message, ctx, 1);
}

/**
 * Serialises graph state for the `values` stream mode and REST state reads:
 * top-level keys starting `__pregel_` are dropped (`__interrupt__` is kept),
 * and messages with `additional_kwargs.hide_from_ui === true` lose their
 * inline `data:` `image_url` blocks.
 */
export function serializeState(state: unknown): unknown {
  const ctx = newContext(true);
  if (!isPlainObject(state)) return walkOrNull(state, ctx, 0);
  ctx.ancestors.add(state);
  return walkOwnProperties(state, ctx, 1, (key) => key.startsWith("__pregel_"));
}

/**
 * Serialised metadata of `messages` items, by the metadata object: LangGraph
 * makes one metadata object per model call and hands the same one with every
 * token of it, so it is walked once per call rather than once per token. The
 * serialised copy is frozen, being shared by those events.
 */
const serializedMetadata = new WeakMap<object, unknown>();

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Serialises a `messages` stream-mode item, a `[message, metadata]` pair, into
 * `[serializedMessage, metadata]`; metadata that is not a plain object becomes
 * `{}`. Anything that is not a pair is serialised with {@link serializeValue}.
 * The serialised metadata is frozen and shared by the items of one metadata object.
 */
export function serializeMessageTuple(value: unknown): unknown {
  if (!Array.isArray(value) || value.length !== 2) return serializeValue(value);
  const [message, metadata] = value as [unknown, unknown];
  if (!isPlainObject(metadata)) return [serializeValue(message), {}];
  let serialized = serializedMetadata.get(metadata);
  if (serialized === undefined) {
    serialized = deepFreeze(serializeValue(metadata));
    serializedMetadata.set(metadata, serialized);
  }
  return [serializeValue(message), serialized];
}
