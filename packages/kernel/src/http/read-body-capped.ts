/**
 * Reading a fetch `Response` body with a size cap: refused up front by its
 * `Content-Length`, and by counting while reading (the header may lie or be
 * absent), so an oversized body never sits in memory whole. Shared by the
 * sandbox's remote client and the tools' safe fetch.
 */

/**
 * Reads a response body as bytes, stopping as soon as it exceeds `maxBytes`.
 *
 * @param response - the response whose body to read
 * @param maxBytes - the largest accepted size, in bytes
 * @param tooLarge - builds the error thrown when the body is larger (the body is cancelled first)
 * @returns the body's bytes (empty without a body)
 */
export async function readBodyCapped(response: Response, maxBytes: number, tooLarge: () => Error): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge();
  }
  if (response.body === null) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
