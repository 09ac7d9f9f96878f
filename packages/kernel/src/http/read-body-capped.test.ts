import { describe, expect, it } from "vitest";
import { readBodyCapped } from "./read-body-capped.js";

const tooLarge = () => new Error("too large");
/** A body streamed in chunks (counted as they are pulled), with the given headers. */
function streamed(chunks: string[], headers: Record<string, string> = {}): Response & { pulled: () => number } {
  const encoder = new TextEncoder();
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const next = chunks[pulled++];
        if (next === undefined) controller.close();
        else controller.enqueue(encoder.encode(next));
      },
    },
    { highWaterMark: 0 },
  );
  return Object.assign(new Response(body, { headers }), { pulled: () => pulled });
}

describe("readBodyCapped", () => {
  it("reads a body within the cap, whole and in order", async () => {
    const bytes = await readBodyCapped(streamed(["ab", "cd", "e"]), 5, tooLarge);
    expect(new TextDecoder().decode(bytes)).toBe("abcde");
  });

  it("refuses by Content-Length before reading", async () => {
    const res = streamed(["x".repeat(10)], { "content-length": "10" });
    await expect(readBodyCapped(res, 5, tooLarge)).rejects.toThrow("too large");
    expect(res.pulled()).toBe(0);
  });

  it("refuses a body that passes the cap while streaming, whatever its headers said", async () => {
    await expect(readBodyCapped(streamed(["abc", "def"]), 5, tooLarge)).rejects.toThrow("too large");
  });

  it("reads an absent body as empty", async () => {
    expect(await readBodyCapped(new Response(null), 5, tooLarge)).toEqual(new Uint8Array());
  });
});
