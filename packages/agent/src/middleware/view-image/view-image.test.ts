import type { Sandbox } from "@deerflow/sandbox";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { createAgent, createMiddleware } from "langchain";
import { describe, expect, it } from "vitest";
import { localProvider } from "../../../test/support/fixtures.js";
import { VIEWED_IMAGES_HEADING, createViewImageMiddleware } from "./view-image-middleware.js";
import { MAX_IMAGE_BYTES, VIEW_IMAGE_TEXTS, readCheckedImage, sniffImageMime } from "./view-image-tool.js";

/** A real 1×1 PNG and a real 1×1 JPEG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const JPEG = Buffer.from(
  "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=",
  "base64",
);

async function sandboxWith(files: Record<string, Uint8Array>): Promise<Sandbox> {
  const sandbox = await (await localProvider()).acquire("t-view");
  for (const [p, bytes] of Object.entries(files)) await sandbox.writeBytes(p, bytes);
  return sandbox;
}

describe("view_image checks (DeerFlow §5.3)", () => {
  it("reads PNG and JPEG images under the user-data folders", async () => {
    const sandbox = await sandboxWith({
      "/mnt/user-data/uploads/dot.png": PNG,
      "/mnt/user-data/outputs/dot.jpeg": JPEG,
    });
    expect(await readCheckedImage(sandbox, "/mnt/user-data/uploads/dot.png")).toMatchObject({
      ok: true,
      mime: "image/png",
    });
    expect(await readCheckedImage(sandbox, "/mnt/user-data/outputs/dot.jpeg")).toMatchObject({
      ok: true,
      mime: "image/jpeg",
    });
    expect(sniffImageMime(Buffer.from("GIF89a..."))).toBe("image/gif");
  });

  it("refuses paths outside, other formats, spoofed extensions, folders and missing files with DeerFlow's texts", async () => {
    const sandbox = await sandboxWith({
      "/mnt/user-data/uploads/fake.png": JPEG,
      "/mnt/user-data/uploads/notes.txt": Buffer.from("hi"),
      "/mnt/user-data/uploads/dir.png/x": PNG,
    });
    const error = async (p: string) => ((await readCheckedImage(sandbox, p)) as { error: string }).error;
    expect(await error("/etc/passwd.png")).toBe(
      "Error: Only image paths under /mnt/user-data/workspace, /mnt/user-data/uploads, /mnt/user-data/outputs are allowed",
    );
    expect(await error("/mnt/user-data/uploads/../../../etc/x.png")).toBe(VIEW_IMAGE_TEXTS.outsideAllowed);
    expect(await error("/mnt/user-data/uploads/notes.txt")).toBe(
      "Error: Unsupported image format: .txt. Supported formats: .jpg, .jpeg, .png, .webp, .gif",
    );
    expect(await error("/mnt/user-data/uploads/fake.png")).toBe(
      "Error: Image content does not match its .png extension: /mnt/user-data/uploads/fake.png",
    );
    expect(await error("/mnt/user-data/uploads/missing.png")).toBe(
      "Error: Image file not found: /mnt/user-data/uploads/missing.png",
    );
    expect(await error("/mnt/user-data/uploads/dir.png")).toBe(
      "Error: Path is not a file: /mnt/user-data/uploads/dir.png",
    );
    expect(VIEW_IMAGE_TEXTS.tooLarge(MAX_IMAGE_BYTES + 1)).toBe(
      "Error: Image file is too large: 20971521 bytes. Maximum supported size is 20971520 bytes",
    );
  });

  it("refuses an image over 20 MiB", async () => {
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(PNG);
    const sandbox = await sandboxWith({ "/mnt/user-data/workspace/big.png": big });
    expect(await readCheckedImage(sandbox, "/mnt/user-data/workspace/big.png")).toEqual({
      ok: false,
      error: VIEW_IMAGE_TEXTS.tooLarge(MAX_IMAGE_BYTES + 1),
    });
  });
});

describe("ViewImageMiddleware", () => {
  const viewCall = new AIMessage({
    id: "ai-1",
    content: "",
    tool_calls: [{ name: "view_image", args: { image_path: "/mnt/user-data/uploads/dot.png" }, id: "c1" }],
  });

  async function run(sandbox: Sandbox, vision: boolean) {
    const model = fakeModel().respond(viewCall).respond(new AIMessage("A dot."));
    const agent = createAgent({
      model,
      tools: [],
      middleware: [createViewImageMiddleware({ getSandbox: async () => sandbox, supportsVision: () => vision })],
    });
    await agent.invoke({ messages: [new HumanMessage("look at my dot")] });
    return model;
  }

  it("gives a vision model the image as a hidden data-URL message after the view_image result", async () => {
    const sandbox = await sandboxWith({ "/mnt/user-data/uploads/dot.png": PNG });
    const model = await run(sandbox, true);
    const second = model.calls[1]?.messages as BaseMessage[];
    const context = second.at(-1) as HumanMessage;
    expect(context.id).toBe("view-image-context:ai-1");
    expect(context.content).toEqual([
      { type: "text", text: VIEWED_IMAGES_HEADING },
      { type: "text", text: "- **/mnt/user-data/uploads/dot.png** (image/png)" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` } },
    ]);
    expect(second.at(-2)?.content).toBe("Successfully read image");
  });

  it("notes a file changed on disk instead of sending it", async () => {
    const sandbox = await sandboxWith({ "/mnt/user-data/uploads/dot.png": PNG });
    // The tool succeeds; the file then changes before the next model call.
    const changing = fakeModel().respond(viewCall).respond(new AIMessage("done"));
    const middleware = createViewImageMiddleware({
      getSandbox: async () => sandbox,
      supportsVision: () => true,
    });
    const agent = createAgent({
      model: changing,
      tools: [],
      middleware: [
        middleware,
        createMiddleware({
          name: "ChangeFile",
          wrapToolCall: async (request, handler) => {
            const result = await handler(request);
            await sandbox.writeBytes("/mnt/user-data/uploads/dot.png", Buffer.from("not an image"));
            return result;
          },
        }),
      ],
    });
    await agent.invoke({ messages: [new HumanMessage("look")] });
    const context = (changing.calls[1]?.messages as BaseMessage[]).at(-1) as HumanMessage;
    expect(context.content).toEqual([
      { type: "text", text: VIEWED_IMAGES_HEADING },
      {
        type: "text",
        text: "- **/mnt/user-data/uploads/dot.png** (file unavailable or changed on disk: Image content does not match its .png extension: /mnt/user-data/uploads/dot.png)",
      },
    ]);
  });

  it("offers view_image only to vision models", async () => {
    const sandbox = await sandboxWith({ "/mnt/user-data/uploads/dot.png": PNG });
    const toolsSeen: string[][] = [];
    for (const vision of [true, false]) {
      const capture = createMiddleware({
        name: "CaptureTools",
        wrapModelCall: async (request, handler) => {
          toolsSeen.push(request.tools.map((t) => String((t as { name?: string }).name)));
          return handler(request);
        },
      });
      const model = fakeModel().respond(new AIMessage("ok"));
      const agent = createAgent({
        model,
        tools: [],
        middleware: [
          createViewImageMiddleware({ getSandbox: async () => sandbox, supportsVision: () => vision }),
          capture,
        ],
      });
      await agent.invoke({ messages: [new HumanMessage("hi")] });
    }
    expect(toolsSeen[0]).toContain("view_image");
    expect(toolsSeen[1]).not.toContain("view_image");
  });
});
