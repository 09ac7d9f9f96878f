/**
 * Byte ranges on the artifacts route over a real socket: resuming a large
 * output, seeking, suffix and open ranges, 416, If-Range and HEAD.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { putThreadFile, type Fixture } from "../support/fixture.js";
import { listenFixture, type SocketFixture } from "../support/socket.js";

const SIZE = 1000;
const URL_PATH = "/api/threads/rg/artifacts/mnt/user-data/outputs/data.bin";

describe("artifact byte ranges over a socket", () => {
  let sock: SocketFixture;
  let fx: Fixture;
  let bytes: Buffer;

  beforeAll(async () => {
    sock = await listenFixture();
    fx = sock.fx;
    bytes = randomBytes(SIZE);
    await putThreadFile(fx, "rg", "outputs/data.bin", bytes);
    await putThreadFile(fx, "rg", "outputs/empty.txt", "");
  });
  afterAll(async () => {
    await fx.close();
  });

  const get = (headers: Record<string, string> = {}, path = URL_PATH, method = "GET") =>
    fetch(sock.url(path), { method, headers });
  const body = async (res: Response) => Buffer.from(await res.arrayBuffer());

  it("advertises ranges, a strong ETag and Last-Modified on a whole-file answer", async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("etag")).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.headers.get("last-modified")).not.toBeNull();
    expect(res.headers.get("content-length")).toBe(String(SIZE));
    expect(await body(res)).toEqual(bytes);
  });

  it.each([
    ["a closed range", "bytes=10-19", 10, 19],
    ["an open range", "bytes=100-", 100, SIZE - 1],
    ["a suffix range", "bytes=-500", SIZE - 500, SIZE - 1],
    ["a suffix longer than the file", "bytes=-5000", 0, SIZE - 1],
    ["an end past the file", "bytes=990-5000", 990, SIZE - 1],
    ["the last byte", "bytes=999-999", 999, 999],
    ["spaces and an upper-case unit", "Bytes = 5-6", 5, 6],
  ])("answers %s with 206 and Content-Range", async (_label, range, start, end) => {
    const res = await get({ range });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes ${start}-${end}/${SIZE}`);
    expect(res.headers.get("content-length")).toBe(String(end - start + 1));
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(await body(res)).toEqual(bytes.subarray(start, end + 1));
  });

  it.each([
    ["a start past the end", "bytes=1000-"],
    ["a start far past the end", "bytes=5000-6000"],
    ["an empty suffix", "bytes=-0"],
  ])("answers %s with 416 and Content-Range: bytes */size", async (_label, range) => {
    const res = await get({ range });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe(`bytes */${SIZE}`);
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(await res.json()).toEqual({ detail: "Requested range is not satisfiable" });
  });

  it("answers any range of an empty file with 416, and the file itself with 200", async () => {
    const path = "/api/threads/rg/artifacts/mnt/user-data/outputs/empty.txt";
    const ranged = await get({ range: "bytes=0-" }, path);
    expect(ranged.status).toBe(416);
    expect(ranged.headers.get("content-range")).toBe("bytes */0");
    const whole = await get({}, path);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-length")).toBe("0");
    expect(await whole.text()).toBe("");
  });

  it.each([
    ["several ranges", "bytes=0-1,5-6"],
    ["another unit", "items=0-5"],
    ["a malformed range", "bytes=abc"],
    ["a backwards range", "bytes=5-2"],
    ["no bounds", "bytes=-"],
  ])("ignores %s and sends the whole file", async (_label, range) => {
    const res = await get({ range });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-range")).toBeNull();
    expect(await body(res)).toEqual(bytes);
  });

  it("resumes a download under If-Range and restarts when the file changed", async () => {
    const first = await get({ range: "bytes=0-399" });
    const etag = first.headers.get("etag") ?? "";
    const lastModified = first.headers.get("last-modified") ?? "";
    const head = await body(first);
    const rest = await get({ range: "bytes=400-", "if-range": etag });
    expect(rest.status).toBe(206);
    expect(Buffer.concat([head, await body(rest)])).toEqual(bytes);

    const byDate = await get({ range: "bytes=400-", "if-range": lastModified });
    expect(byDate.status).toBe(206);
    await byDate.arrayBuffer();

    for (const stale of ['"0-0"', `W/${etag}`, "Thu, 01 Jan 1970 00:00:00 GMT"]) {
      const res = await get({ range: "bytes=400-", "if-range": stale });
      expect(res.status).toBe(200);
      expect(await body(res)).toEqual(bytes);
    }
  });

  it("answers HEAD with the whole file's headers and no body, ignoring Range", async () => {
    for (const headers of [{}, { range: "bytes=0-9" }]) {
      const res = await get(headers, URL_PATH, "HEAD");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-length")).toBe(String(SIZE));
      expect(res.headers.get("accept-ranges")).toBe("bytes");
      expect(res.headers.get("content-range")).toBeNull();
      expect(await res.text()).toBe("");
    }
  });

  it("keeps a download of a large output intact across several ranged requests", async () => {
    const big = randomBytes(3 * 1024 * 1024 + 17);
    await putThreadFile(fx, "rg", "outputs/video.mp4", big);
    const path = "/api/threads/rg/artifacts/mnt/user-data/outputs/video.mp4";
    const parts: Buffer[] = [];
    const step = 1024 * 1024;
    for (let start = 0; start < big.length; start += step) {
      const res = await get({ range: `bytes=${start}-${Math.min(start + step, big.length) - 1}` }, path);
      expect(res.status).toBe(206);
      expect(res.headers.get("content-type")).toBe("video/mp4");
      parts.push(await body(res));
    }
    // Buffer#equals: a deep toEqual over megabytes is needlessly slow.
    expect(Buffer.concat(parts).equals(big)).toBe(true);
  });
});
