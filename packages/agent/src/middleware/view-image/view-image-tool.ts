/**
 * DeerFlow's `view_image(image_path)` tool (§5.3): checks an image in the
 * thread's sandbox — under `/mnt/user-data/{workspace,uploads,outputs}`, a
 * `.jpg`/`.jpeg`/`.png`/`.webp`/`.gif` name, at most 20 MiB, magic bytes
 * matching the extension — with DeerFlow's error texts. The image itself reaches
 * the model through the ViewImage middleware, which re-reads it before each call.
 *
 * Deliberate difference: DeerFlow records viewed images in a `viewed_images`
 * state channel; here the middleware finds them from the `view_image` calls and
 * their successful results in the messages (no extra state to keep in step).
 */
import path from "node:path";
import type { Sandbox } from "@deerflow/sandbox";
import { tool, type ToolRunnableConfig } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";

/** Tool name. */
export const VIEW_IMAGE_TOOL_NAME = "view_image";
/** DeerFlow's size cap: 20 MiB. */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** The answer of a successful call (the middleware looks for it). */
export const VIEW_IMAGE_SUCCESS = "Successfully read image";

const ALLOWED_DIRS = ["/mnt/user-data/workspace", "/mnt/user-data/uploads", "/mnt/user-data/outputs"] as const;
const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".png": "image/png",
  ".webp": "image/webp",
  ".gif": "image/gif",
};

/** DeerFlow's texts. */
export const VIEW_IMAGE_TEXTS = {
  outsideAllowed: `Error: Only image paths under ${ALLOWED_DIRS.join(", ")} are allowed`,
  unsupported: (ext: string) =>
    `Error: Unsupported image format: ${ext}. Supported formats: ${Object.keys(MIME_BY_EXTENSION).join(", ")}`,
  tooLarge: (bytes: number) =>
    `Error: Image file is too large: ${bytes} bytes. Maximum supported size is ${MAX_IMAGE_BYTES} bytes`,
  notFound: (p: string) => `Error: Image file not found: ${p}`,
  notAFile: (p: string) => `Error: Path is not a file: ${p}`,
  // DeerFlow rejects it; its exact text is not in the reference, so this one is ours.
  mismatch: (p: string, ext: string) => `Error: Image content does not match its ${ext} extension: ${p}`,
} as const;

/** The MIME type the bytes are, by their magic numbers (undefined: none of the supported formats). */
export function sniffImageMime(bytes: Uint8Array): string | undefined {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  const ascii = (from: number, text: string) => [...text].every((c, i) => bytes[from + i] === c.charCodeAt(0));
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (ascii(0, "GIF87a") || ascii(0, "GIF89a")) return "image/gif";
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp";
  return undefined;
}

/** A checked image: its bytes and MIME type, or DeerFlow's error text. */
export type ImageCheck =
  | { readonly ok: true; readonly path: string; readonly mime: string; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly error: string };

/**
 * Checks and reads an image the way `view_image` does.
 *
 * @param sandbox - the thread's sandbox
 * @param raw - the model's path
 * @returns the image, or the error text
 */
export async function readCheckedImage(sandbox: Sandbox, raw: string): Promise<ImageCheck> {
  const p = path.posix.normalize(String(raw ?? "").trim());
  if (!path.posix.isAbsolute(p) || !ALLOWED_DIRS.some((dir) => p.startsWith(`${dir}/`)))
    return { ok: false, error: VIEW_IMAGE_TEXTS.outsideAllowed };
  const ext = path.posix.extname(p).toLowerCase();
  const expected = MIME_BY_EXTENSION[ext];
  if (expected === undefined) return { ok: false, error: VIEW_IMAGE_TEXTS.unsupported(ext === "" ? "(none)" : ext) };
  let bytes: Uint8Array;
  try {
    bytes = await sandbox.readBytes(p);
  } catch {
    const isDir = await sandbox.listDir(p, { maxDepth: 1 }).then(
      () => true,
      () => false,
    );
    return { ok: false, error: isDir ? VIEW_IMAGE_TEXTS.notAFile(p) : VIEW_IMAGE_TEXTS.notFound(p) };
  }
  if (bytes.byteLength > MAX_IMAGE_BYTES) return { ok: false, error: VIEW_IMAGE_TEXTS.tooLarge(bytes.byteLength) };
  if (sniffImageMime(bytes) !== expected) return { ok: false, error: VIEW_IMAGE_TEXTS.mismatch(p, ext) };
  return { ok: true, path: p, mime: expected, bytes };
}

const SCHEMA: JSONSchema = {
  type: "object",
  properties: {
    image_path: {
      type: "string",
      description: "Absolute path of the image, under /mnt/user-data/{workspace,uploads,outputs}.",
    },
  },
  required: ["image_path"],
};

/**
 * Creates the `view_image` tool.
 *
 * @param getSandbox - the sandbox of the call's run
 * @returns the LangChain tool
 */
export function createViewImageTool(getSandbox: (config: ToolRunnableConfig | undefined) => Promise<Sandbox>) {
  return tool(
    async (args: { image_path: string }, config?: ToolRunnableConfig): Promise<string> => {
      const checked = await readCheckedImage(await getSandbox(config), args.image_path);
      return checked.ok ? VIEW_IMAGE_SUCCESS : checked.error;
    },
    {
      name: VIEW_IMAGE_TOOL_NAME,
      description:
        "Read an image file so you can see it. Use it for images the user uploaded or you produced (.jpg, .jpeg, .png, .webp, .gif; at most 20 MiB).",
      schema: SCHEMA,
    },
  );
}
