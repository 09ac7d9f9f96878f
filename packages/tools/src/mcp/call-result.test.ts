import { describe, expect, it } from "vitest";
import { mcpErrorText, toToolContent } from "./call-result.js";

describe("MCP results for the model", () => {
  it("text only stays one string", () => {
    expect(
      toToolContent({
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      }),
    ).toBe("a\nb");
  });

  it("an image becomes an image_url data URL block next to the text", () => {
    expect(
      toToolContent({
        content: [
          { type: "text", text: "here" },
          { type: "image", data: "iVBOR", mimeType: "image/png" },
        ],
      }),
    ).toEqual([
      { type: "text", text: "here" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBOR" } },
    ]);
  });

  it("resources become text with their uri; binary ones are announced, image blobs shown", () => {
    const out = toToolContent({
      content: [
        { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "hello" } },
        { type: "resource", resource: { uri: "file:///b.bin", mimeType: "application/zip", blob: "AAAA" } },
        { type: "resource_link", uri: "https://x.example/doc", name: "doc", mimeType: "text/html" },
      ],
    });
    expect(out).toBe(
      "[resource] file:///a.txt (text/plain)\nhello\n" +
        "[resource] file:///b.bin (application/zip), 3 bytes of binary data, not shown\n" +
        "[resource link] doc: https://x.example/doc (text/html)",
    );
    expect(
      toToolContent({
        content: [{ type: "resource", resource: { uri: "mem://p", mimeType: "image/png", blob: "QQ==" } }],
      }),
    ).toEqual([{ type: "image_url", image_url: { url: "data:image/png;base64,QQ==" } }]);
  });

  it("structuredContent is added as JSON text unless a text block already carries it", () => {
    expect(toToolContent({ content: [], structuredContent: { t: 1 } })).toBe('[structured content]\n{"t":1}');
    expect(toToolContent({ content: [{ type: "text", text: '{ "t": 1 }' }], structuredContent: { t: 1 } })).toBe(
      '{ "t": 1 }',
    );
  });

  it("an error's text parts are joined by newlines", () => {
    expect(
      mcpErrorText({
        isError: true,
        content: [
          { type: "text", text: "bad" },
          { type: "text", text: "input" },
        ],
      }),
    ).toBe("bad\ninput");
    expect(mcpErrorText({ isError: true, content: [] })).toBe("the tool reported an error without text");
  });
});
