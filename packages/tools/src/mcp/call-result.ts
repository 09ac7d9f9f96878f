/**
 * What the model reads from an MCP `tools/call` result. Chat models take text
 * and images, so: text stays text, images become `image_url` data-URL blocks,
 * resources (embedded or linked) become text naming their URI (a binary one
 * is announced, not inlined), audio is announced, and `structuredContent` is
 * added as JSON text unless a text block already carries the same JSON.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

/** A content block of a tool message. */
export type McpToolContentBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image_url"; readonly image_url: { readonly url: string } };

/** The model's view of a result: one string, or blocks when there are images or several parts. */
export type McpToolContent = string | McpToolContentBlock[];

type ContentItem = CallToolResult["content"][number];

function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4);
}

function itemToBlock(item: ContentItem): McpToolContentBlock {
  switch (item.type) {
    case "text":
      return { type: "text", text: item.text };
    case "image":
      return { type: "image_url", image_url: { url: `data:${item.mimeType};base64,${item.data}` } };
    case "audio":
      return { type: "text", text: `[audio ${item.mimeType}, ${base64Bytes(item.data)} bytes, not shown]` };
    case "resource_link":
      return {
        type: "text",
        text: `[resource link] ${item.name}: ${item.uri}${item.mimeType === undefined ? "" : ` (${item.mimeType})`}${
          item.description === undefined ? "" : `\n${item.description}`
        }`,
      };
    case "resource": {
      const r = item.resource;
      const mime = r.mimeType === undefined ? "" : ` (${r.mimeType})`;
      if ("text" in r && typeof r.text === "string")
        return { type: "text", text: `[resource] ${r.uri}${mime}\n${r.text}` };
      const blob = (r as { blob?: string }).blob ?? "";
      if (r.mimeType?.startsWith("image/") === true)
        return { type: "image_url", image_url: { url: `data:${r.mimeType};base64,${blob}` } };
      return { type: "text", text: `[resource] ${r.uri}${mime}, ${base64Bytes(blob)} bytes of binary data, not shown` };
    }
    default:
      return { type: "text", text: `[unsupported MCP content type '${(item as { type: string }).type}']` };
  }
}

/**
 * Converts a successful result.
 *
 * @param result - the `tools/call` answer (`isError` results are the caller's: see {@link mcpErrorText})
 * @returns a string when the result is text only, else blocks
 */
export function toToolContent(result: CallToolResult): McpToolContent {
  const content = result.content ?? [];
  // The common answer, one text block: no block copies on the per-call path.
  if (content.length === 1 && result.structuredContent === undefined && content[0]?.type === "text")
    return content[0].text;
  const blocks = content.map(itemToBlock);
  if (result.structuredContent !== undefined) {
    const json = JSON.stringify(result.structuredContent);
    const alreadyThere = blocks.some((b) => b.type === "text" && safeJsonEquals(b.text, json));
    if (!alreadyThere) blocks.push({ type: "text", text: `[structured content]\n${json}` });
  }
  if (blocks.every((b) => b.type === "text")) return blocks.map((b) => (b as { text: string }).text).join("\n");
  return blocks;
}

/**
 * The text of an `isError` result (DeerFlow joins the text parts with newlines).
 *
 * @param result - the answer
 * @returns the joined text, or a generic text when there is none
 */
export function mcpErrorText(result: CallToolResult): string {
  const text = (result.content ?? [])
    .filter((c): c is Extract<ContentItem, { type: "text" }> => c.type === "text")
    .map((c) => c.text)
    .join("\n");
  return text === "" ? "the tool reported an error without text" : text;
}

function safeJsonEquals(text: string, json: string): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === json;
  } catch {
    return false;
  }
}
