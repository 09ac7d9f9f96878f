/**
 * Builds multipart/form-data bodies for `app.inject`.
 */
export interface FormFile {
  readonly field?: string;
  readonly filename: string;
  readonly data: Buffer | string;
  readonly contentType?: string;
}

/** @returns the payload and headers of a multipart request carrying `files` (and `fields`). */
export function multipartBody(
  files: readonly FormFile[],
  fields: Record<string, string> = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----deerflow${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? "files"}"; filename="${f.filename}"\r\nContent-Type: ${f.contentType ?? "application/octet-stream"}\r\n\r\n`,
      ),
      typeof f.data === "string" ? Buffer.from(f.data) : f.data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}
