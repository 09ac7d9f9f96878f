/**
 * File names for uploads: what a browser sends is not trusted.
 */
import { GatewayError } from "../errors.js";
import { TRAVERSAL_MESSAGE } from "./virtual-path.js";

/** Longest file name in UTF-8 bytes (the usual file system limit). */
export const MAX_FILENAME_BYTES = 255;

// C0 controls and DEL; they have no place in a file name and break headers and logs.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function shown(name: string): string {
  return JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);
}

function checkName(name: string, original: string): string {
  if (name === "" || name === "." || name === "..") throw new GatewayError("INVALID_FILENAME", `Invalid filename: ${shown(original)}`);
  if (name.startsWith(".")) throw new GatewayError("INVALID_FILENAME", `Invalid filename: ${shown(original)} (hidden files are not accepted)`);
  if (CONTROL.test(name)) throw new GatewayError("INVALID_FILENAME", `Invalid filename: ${shown(original)} (control characters are not allowed)`);
  if (Buffer.byteLength(name, "utf8") > MAX_FILENAME_BYTES) {
    throw new GatewayError("INVALID_FILENAME", `Invalid filename: ${shown(original)} (longer than ${MAX_FILENAME_BYTES} bytes)`);
  }
  return name;
}

/**
 * The name an uploaded file is stored under: the last component of what the
 * client sent (directories stripped on `/` and `\`), which must not be empty,
 * `.`, `..` or hidden, contain control characters (NUL included) or exceed
 * {@link MAX_FILENAME_BYTES}.
 *
 * @param raw - the multipart part's file name.
 * @returns the safe name.
 * @throws GatewayError `INVALID_FILENAME` (400).
 * @example
 * ```ts
 * uploadFilename("C:\\Users\\me\\report.pdf"); // "report.pdf"
 * uploadFilename("../../etc/passwd");           // "passwd"
 * ```
 */
export function uploadFilename(raw: string): string {
  if (raw.includes("\0")) throw new GatewayError("INVALID_FILENAME", `Invalid filename: ${shown(raw)} (control characters are not allowed)`);
  const base = raw.split(/[\\/]/).pop() ?? "";
  return checkName(base.trim(), raw);
}

/**
 * A file name addressed in a URL (`DELETE .../uploads/:filename`): unlike an
 * upload, directories are not stripped; a separator or `..` is an attack.
 *
 * @param raw - the decoded path parameter.
 * @returns the name.
 * @throws GatewayError `PATH_TRAVERSAL` (403) for `..` or a separator, `INVALID_FILENAME` (400) otherwise.
 */
export function existingFilename(raw: string): string {
  if (raw === ".." || /[\\/]/.test(raw)) throw new GatewayError("PATH_TRAVERSAL", TRAVERSAL_MESSAGE);
  return checkName(raw, raw);
}
