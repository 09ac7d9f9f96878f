/**
 * Virtual paths of a thread's user data (`/mnt/user-data/{workspace,uploads,outputs}/...`),
 * parsed without trusting them.
 */
import { USER_DATA_AREAS, USER_DATA_ROOT, type UserDataArea } from "@deerflow/sandbox";
import { GatewayError } from "../errors.js";

// The virtual root and its three folders are the sandbox's (it owns the layout); re-exported as the gateway's API.
export { USER_DATA_AREAS, USER_DATA_ROOT, type UserDataArea };

/** DeerFlow's 403 detail for `..` and escaping symlinks. */
export const TRAVERSAL_MESSAGE = "Access denied: path traversal detected";

/** DeerFlow's 400 detail for a path outside the user data. */
export const OUTSIDE_USER_DATA_MESSAGE = `Path must start with ${USER_DATA_ROOT}`;

/** A checked virtual path. */
export interface UserDataPath {
  /** Normalised virtual path: `/mnt/user-data[/area[/...segments]]`. */
  readonly virtualPath: string;
  /** The folder, or `undefined` for `/mnt/user-data` itself or a name that is not one of the three. */
  readonly area: UserDataArea | undefined;
  /** Path segments below the area (never empty, `.` or `..`). */
  readonly segments: readonly string[];
  /** The first segment below `/mnt/user-data`, whatever it is. */
  readonly top: string | undefined;
}

function isArea(value: string | undefined): value is UserDataArea {
  return (USER_DATA_AREAS as readonly string[]).includes(value ?? "");
}

/**
 * Parses a virtual path given by a client, with or without the leading `/`
 * (`mnt/user-data/outputs/report.md`). Checks, in order:
 *
 * 1. a NUL byte → `INVALID_PATH` 400 `Invalid path: NUL bytes are not allowed`;
 * 2. not `mnt/user-data` or below it (segment boundary) → `INVALID_PATH` 400 `Path must start with /mnt/user-data`;
 * 3. a `..` segment, split on `/` or `\` → `PATH_TRAVERSAL` 403 `Access denied: path traversal detected`.
 *
 * Empty and `.` segments are dropped. Symlinks are the storage's business (see `LocalThreadFiles`).
 *
 * @param input - the client's path (already URL-decoded).
 * @returns the checked path.
 * @throws GatewayError `INVALID_PATH` or `PATH_TRAVERSAL`.
 */
export function parseUserDataPath(input: string): UserDataPath {
  if (input.includes("\0")) throw new GatewayError("INVALID_PATH", "Invalid path: NUL bytes are not allowed");
  const parts = input.split("/").filter((p) => p !== "" && p !== ".");
  if (parts[0] !== "mnt" || parts[1] !== "user-data") throw new GatewayError("INVALID_PATH", OUTSIDE_USER_DATA_MESSAGE);
  const below = parts.slice(2);
  if (below.some((p) => p.split("\\").includes(".."))) throw new GatewayError("PATH_TRAVERSAL", TRAVERSAL_MESSAGE);
  const top = below[0];
  const area = isArea(top) ? top : undefined;
  return {
    virtualPath: [USER_DATA_ROOT, ...below].join("/"),
    area,
    segments: area === undefined ? [] : below.slice(1),
    top,
  };
}

/**
 * @param area - a folder.
 * @param relative - POSIX path below it.
 * @returns the virtual path, e.g. `/mnt/user-data/outputs/report.md`.
 */
export function virtualPathOf(area: UserDataArea, relative: string): string {
  return `${USER_DATA_ROOT}/${area}/${relative}`;
}
