/**
 * Content types of served files, by extension (no dependency, no sniffing).
 */
import path from "node:path";

const TEXT = "; charset=utf-8";

const TYPES: Readonly<Record<string, string>> = {
  ".txt": `text/plain${TEXT}`,
  ".log": `text/plain${TEXT}`,
  ".md": `text/markdown${TEXT}`,
  ".markdown": `text/markdown${TEXT}`,
  ".csv": `text/csv${TEXT}`,
  ".tsv": `text/tab-separated-values${TEXT}`,
  ".html": `text/html${TEXT}`,
  ".htm": `text/html${TEXT}`,
  ".css": `text/css${TEXT}`,
  ".js": `text/javascript${TEXT}`,
  ".mjs": `text/javascript${TEXT}`,
  ".ts": `text/plain${TEXT}`,
  ".py": `text/x-python${TEXT}`,
  ".sh": `text/x-shellscript${TEXT}`,
  ".json": `application/json${TEXT}`,
  ".ipynb": `application/json${TEXT}`,
  ".xml": `application/xml${TEXT}`,
  ".yaml": `application/yaml${TEXT}`,
  ".yml": `application/yaml${TEXT}`,
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".bmp": "image/bmp",
  ".ico": "image/x-icon",
  ".pdf": "application/pdf",
  ".zip": "application/zip",
  ".skill": "application/zip",
  ".gz": "application/gzip",
  ".tar": "application/x-tar",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".ogg": "audio/ogg",
  ".mp4": "video/mp4",
  ".webm": "video/webm",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
};

/** Types a browser would execute in the gateway's origin if served inline without a sandbox CSP. */
const ACTIVE: ReadonlySet<string> = new Set([
  "text/html",
  "image/svg+xml",
  "application/xml",
  "text/xml",
  "application/xhtml+xml",
]);

/**
 * @param fileName - a file name or path.
 * @returns its content type (`application/octet-stream` when unknown); text types carry `charset=utf-8`.
 */
export function contentTypeFor(fileName: string): string {
  return TYPES[path.extname(fileName).toLowerCase()] ?? "application/octet-stream";
}

/**
 * @param contentType - a content type from {@link contentTypeFor}.
 * @returns whether it can run script when rendered (HTML, SVG, XML).
 */
export function isActiveContent(contentType: string): boolean {
  return ACTIVE.has(contentType.split(";")[0]?.trim() ?? "");
}

/**
 * A `Content-Disposition` value with an ASCII fallback name and the exact
 * UTF-8 name (RFC 6266 / 5987).
 *
 * @param type - `inline` or `attachment`.
 * @param fileName - the file's base name.
 * @returns the header value.
 */
export function contentDisposition(type: "inline" | "attachment", fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
