import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent } from "langchain";
import { describe, expect, it } from "vitest";
import { announcedUploads, createUploadsMiddleware } from "./uploads-middleware.js";
import { currentUploadsBlock, formatUploadSize } from "./uploads-text.js";

const GUIDANCE = [
  "To work with these files:",
  "- Read from the file first — use the outline line numbers and `read_file` to locate relevant sections.",
  "- Use `grep` to search for keywords when you are not sure which section to look at",
  "  (e.g. `grep(pattern='revenue', path='/mnt/user-data/uploads/')`).",
  "- Use `glob` to find files by name pattern",
  "  (e.g. `glob(pattern='**/*.md', path='/mnt/user-data/uploads/')`).",
  "- Only fall back to web search if the file content is clearly insufficient to answer the question.",
  "</current_uploads>",
].join("\n");

async function firstRequestText(
  message: HumanMessage,
  listUploads?: () => Promise<ReadonlySet<string> | undefined>,
): Promise<string> {
  const model = fakeModel().respond(new AIMessage("ok"));
  const agent = createAgent({
    model,
    tools: [],
    middleware: [createUploadsMiddleware(listUploads === undefined ? {} : { listUploads })],
  });
  const state = await agent.invoke({ messages: [message] });
  const sent = (model.calls[0]?.messages as BaseMessage[]).find((m) => HumanMessage.isInstance(m));
  // The state keeps the announced message too (same id, replaced).
  expect((state.messages as BaseMessage[]).filter((m) => HumanMessage.isInstance(m))).toHaveLength(1);
  return sent?.text ?? "";
}

describe("formatUploadSize", () => {
  it("formats KB below 1024 KB and MB above, one decimal", () => {
    expect(formatUploadSize(0)).toBe("0.0 KB");
    expect(formatUploadSize(1536)).toBe("1.5 KB");
    expect(formatUploadSize(1024 * 1024)).toBe("1.0 MB");
    expect(formatUploadSize(5 * 1024 * 1024 + 300 * 1024)).toBe("5.3 MB");
  });
});

describe("currentUploadsBlock", () => {
  it("lists each file with DeerFlow's lines", () => {
    const block = currentUploadsBlock([{ filename: "report.pdf", size: 2048 }]);
    expect(block).toBe(
      [
        "<current_uploads>",
        "The following files were uploaded in this message:",
        "",
        "- report.pdf (2.0 KB)",
        "  Path: /mnt/user-data/uploads/report.pdf",
        "  Use `grep` to search for keywords (e.g. `grep(pattern='keyword', path='/mnt/user-data/uploads/')`).",
        "",
        GUIDANCE,
      ].join("\n"),
    );
  });

  it("escapes framework tags in a crafted file name", () => {
    const block = currentUploadsBlock([{ filename: "<system-reminder>x.txt", size: 1 }]);
    expect(block).toContain("- &lt;system-reminder&gt;x.txt (0.0 KB)");
    expect(block).not.toContain("<system-reminder>");
  });

  it("names a Markdown companion and summarises files over the cap", () => {
    const block = currentUploadsBlock(
      [{ filename: "a.pdf", size: 10, markdownVirtualPath: "/mnt/user-data/uploads/a.md" }],
      [
        { filename: "b.csv", size: 1 },
        { filename: "c.csv", size: 1 },
        { filename: "README", size: 1 },
      ],
    );
    expect(block).toContain(
      "  Generated Markdown: /mnt/user-data/uploads/a.md\n  Use `grep` on the Generated Markdown path to search for keywords.\n",
    );
    expect(block).toContain(
      "... (3 more file(s) from this message omitted from this context.)\n  Omitted file types: 1 (no extension), 2 .csv\n",
    );
  });
});

describe("announcedUploads", () => {
  it("skips non-objects, non-base names, staging files and files missing on disk; coerces sizes", () => {
    const files = [
      "junk",
      { filename: "../etc/passwd", size: 1 },
      { filename: "dir/a.txt", size: 1 },
      { filename: ".upload-123.part", size: 1 },
      { filename: "gone.txt", size: 1 },
      { filename: "ok.txt", size: "12.7" },
    ];
    expect(announcedUploads(files, new Set(["ok.txt", ".upload-123.part"]))).toEqual([
      { filename: "ok.txt", size: 12 },
    ]);
  });

  it("keeps a companion only when it is in the uploads folder", () => {
    const entry = { filename: "r.pdf", size: 1, markdown_virtual_path: "/mnt/user-data/uploads/r.md" };
    expect(announcedUploads([entry], new Set(["r.pdf", "r.md"]))[0]?.markdownVirtualPath).toBe(
      "/mnt/user-data/uploads/r.md",
    );
    expect(announcedUploads([entry], new Set(["r.pdf"]))[0]?.markdownVirtualPath).toBeUndefined();
  });
});

describe("createUploadsMiddleware", () => {
  it("prepends the block to the last human message the model receives", async () => {
    const message = new HumanMessage({
      content: "Summarise it",
      additional_kwargs: {
        files: [{ filename: "report.pdf", size: 2048, path: "/mnt/user-data/uploads/report.pdf", status: "uploaded" }],
      },
    });
    const text = await firstRequestText(message, async () => new Set(["report.pdf"]));
    expect(
      text.startsWith(
        "<current_uploads>\nThe following files were uploaded in this message:\n\n- report.pdf (2.0 KB)\n",
      ),
    ).toBe(true);
    expect(text.endsWith("</current_uploads>\n\nSummarise it")).toBe(true);
  });

  it("lists at most 10 files", async () => {
    const files = Array.from({ length: 12 }, (_, i) => ({ filename: `f${i}.txt`, size: 1 }));
    const text = await firstRequestText(new HumanMessage({ content: "go", additional_kwargs: { files } }));
    expect(text).toContain("- f9.txt");
    expect(text).not.toContain("- f10.txt");
    expect(text).toContain("... (2 more file(s) from this message omitted from this context.)");
  });

  it("leaves the message alone without files, or when none is on disk", async () => {
    expect(await firstRequestText(new HumanMessage("plain"))).toBe("plain");
    const missing = new HumanMessage({
      content: "where",
      additional_kwargs: { files: [{ filename: "gone.txt", size: 1 }] },
    });
    expect(await firstRequestText(missing, async () => new Set())).toBe("where");
  });

  it("puts a text block first in multi-part content", async () => {
    const message = new HumanMessage({
      content: [{ type: "text", text: "look" }],
      additional_kwargs: { files: [{ filename: "a.txt", size: 1 }] },
    });
    const text = await firstRequestText(message);
    expect(text).toMatch(/^<current_uploads>[\s\S]*<\/current_uploads>\n\nlook$/);
  });

  it("rejects a cap below 1", () => {
    expect(() => createUploadsMiddleware({ maxFiles: 0 })).toThrow(expect.objectContaining({ code: "CONFIG_INVALID" }));
  });
});
