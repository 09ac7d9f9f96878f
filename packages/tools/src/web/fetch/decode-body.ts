/**
 * Bytes to text with the right charset: the `Content-Type` header's, else an
 * HTML `<meta charset>` / `http-equiv` in the first bytes, else a BOM, else UTF-8.
 */

const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i;

/** The charset named by a `Content-Type` value, if any. */
function charsetOf(contentType: string | null): string | undefined {
  const m = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? "");
  return m?.[1]?.toLowerCase();
}

function decoderFor(label: string | undefined): InstanceType<typeof TextDecoder> | undefined {
  if (label === undefined) return undefined;
  try {
    return new TextDecoder(label);
  } catch {
    return undefined; // an unknown label: fall through to the next source
  }
}

/**
 * Decodes a body.
 *
 * @param bytes - the body
 * @param contentType - the response's `Content-Type`
 * @param isHtml - whether to look for a `<meta charset>`
 * @returns the text
 */
export function decodeBody(bytes: Uint8Array, contentType: string | null, isHtml: boolean): string {
  const fromHeader = decoderFor(charsetOf(contentType));
  if (fromHeader !== undefined) return fromHeader.decode(bytes);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder("utf-8").decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes);
  if (isHtml) {
    const head = new TextDecoder("latin1").decode(bytes.subarray(0, 2048));
    const fromMeta = decoderFor(META_CHARSET.exec(head)?.[1]?.toLowerCase());
    if (fromMeta !== undefined) return fromMeta.decode(bytes);
  }
  return new TextDecoder("utf-8").decode(bytes);
}
