/**
 * File names for uploads: what a browser sends is not trusted.
 *
 * Two kinds of trouble, two rules. A name that cannot denote a file of its own
 * (empty, `.`, `..`, hidden, control characters, too long) is refused. A name
 * that is a fine file name here but lies to a reader or breaks another system
 * is neutralised, and the stored name is reported next to the original:
 * invisible format characters (bidi overrides that display `exe.pdf` for a
 * `.exe`, zero-width characters, tags that smuggle text to a model) are
 * removed, `:` (an NTFS stream separator) becomes `_`, and a Windows device
 * name (`CON`, `nul.txt`, `COM1.log`) gets a leading `_`.
 */
import { GatewayError } from "../errors.js";
import { TRAVERSAL_MESSAGE } from "./virtual-path.js";

/** Longest file name in UTF-8 bytes (the usual file system limit). */
export const MAX_FILENAME_BYTES = 255;

// C0 and C1 controls, DEL and the Unicode line/paragraph separators: they break headers, logs and prompts.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

// Unicode format characters (general category Cf): U+200B–U+200F, U+202A–U+202E, U+2060–U+2064,
// U+2066–U+2069, U+FEFF, U+00AD, tags U+E0000–U+E007F... They render as nothing, or reorder what is shown.
const INVISIBLE = /\p{Cf}/gu;

// Device names Windows reserves whatever the extension (`con.txt` too); `COM¹`-style superscripts count.
const WINDOWS_DEVICE = /^(?:CON|PRN|AUX|NUL|CONIN\$|CONOUT\$|COM[0-9\u00b9\u00b2\u00b3]|LPT[0-9\u00b9\u00b2\u00b3])$/i;

function shown(name: string): string {
  return JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);
}

function checkName(name: string, original: string): string {
  if (name === "" || name === "." || name === "..")
    throw new GatewayError("INVALID_FILENAME", `Invalid filename: ${shown(original)}`);
  if (name.startsWith("."))
    throw new GatewayError("INVALID_FILENAME", `Invalid filename: ${shown(original)} (hidden files are not accepted)`);
  if (CONTROL.test(name))
    throw new GatewayError(
      "INVALID_FILENAME",
      `Invalid filename: ${shown(original)} (control characters are not allowed)`,
    );
  if (Buffer.byteLength(name, "utf8") > MAX_FILENAME_BYTES) {
    throw new GatewayError(
      "INVALID_FILENAME",
      `Invalid filename: ${shown(original)} (longer than ${MAX_FILENAME_BYTES} bytes)`,
    );
  }
  return name;
}

/**
 * The last component of a client's file name, directories stripped on `/`
 * and `\` and nothing else changed: the name the client meant.
 *
 * @param raw - the multipart part's file name.
 * @returns its base name, as sent.
 */
export function clientBasename(raw: string): string {
  return raw.split(/[\\/]/).pop() ?? "";
}

/** A Windows device name is one whatever follows its first dot, and trailing spaces before it do not count. */
function isWindowsDeviceName(name: string): boolean {
  const dot = name.indexOf(".");
  return WINDOWS_DEVICE.test((dot < 0 ? name : name.slice(0, dot)).trimEnd());
}

/**
 * The name an uploaded file is stored under: {@link clientBasename} of what
 * the client sent, neutralised (format characters removed, `:` → `_`, a
 * Windows device name prefixed with `_`) and trimmed. The result must not be
 * empty, `.`, `..` or hidden, contain control characters (NUL included) or
 * exceed {@link MAX_FILENAME_BYTES}.
 *
 * @param raw - the multipart part's file name.
 * @returns the safe name (compare with {@link clientBasename} to tell whether it changed).
 * @throws GatewayError `INVALID_FILENAME` (400).
 * @example
 * ```ts
 * uploadFilename("C:\\Users\\me\\report.pdf"); // "report.pdf"
 * uploadFilename("../../etc/passwd");           // "passwd"
 * uploadFilename("invoice\u202Efdp.exe");       // "invoicefdp.exe"
 * uploadFilename("con.txt");                    // "_con.txt"
 * uploadFilename("10:30 notes.md");             // "10_30 notes.md"
 * ```
 */
export function uploadFilename(raw: string): string {
  if (raw.includes("\0"))
    throw new GatewayError("INVALID_FILENAME", `Invalid filename: ${shown(raw)} (control characters are not allowed)`);
  const name = clientBasename(raw).replace(INVISIBLE, "").replaceAll(":", "_").trim();
  return checkName(isWindowsDeviceName(name) ? `_${name}` : name, raw);
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
