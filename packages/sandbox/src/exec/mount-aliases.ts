/**
 * Other spellings of a host directory that a sandboxed command can observe.
 *
 * Inside bubblewrap, `/proc/self/mountinfo` lists each bind mount with its
 * root: the bound directory's path **relative to its filesystem**, which is
 * the absolute host path only when that filesystem is mounted at `/`. To mask
 * every spelling, the filesystem-relative form is computed from the host's
 * own mount table.
 */
import { readFileSync } from "node:fs";
import { isPathInside } from "@deerflow/kernel";

/** One mount table row: where a filesystem subtree is mounted. */
interface MountRow {
  /** Path of the mounted subtree inside its filesystem (mountinfo field 4). */
  readonly root: string;
  /** Where it is mounted (mountinfo field 5). */
  readonly mountPoint: string;
}

/** Undoes mountinfo's octal escapes (`\040` for a space...). */
export function unescapeMountField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_m, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
}

/**
 * Parses `/proc/<pid>/mountinfo`.
 *
 * @param text - the file's content.
 * @returns rows in file order (later rows shadow earlier ones).
 */
export function parseMountInfo(text: string): MountRow[] {
  const rows: MountRow[] = [];
  for (const line of text.split("\n")) {
    const fields = line.split(" ");
    const root = fields[3];
    const mountPoint = fields[4];
    if (root === undefined || mountPoint === undefined) continue;
    rows.push({ root: unescapeMountField(root), mountPoint: unescapeMountField(mountPoint) });
  }
  return rows;
}

/**
 * The filesystem-relative spelling of a host directory, when it differs from
 * the absolute path.
 *
 * @param hostPath - an absolute, resolved host path.
 * @param rows - the host mount table; read from `/proc/self/mountinfo` when omitted.
 * @returns zero or one alias.
 */
export function filesystemRelativeAliases(hostPath: string, rows?: readonly MountRow[]): string[] {
  let table = rows;
  if (table === undefined) {
    try {
      table = parseMountInfo(readFileSync("/proc/self/mountinfo", "utf8"));
    } catch {
      return [];
    }
  }
  let best: MountRow | undefined;
  for (const row of table) {
    // `>=`: a later mount on the same point shadows the earlier one.
    if (
      isPathInside(hostPath, row.mountPoint) &&
      (best === undefined || row.mountPoint.length >= best.mountPoint.length)
    )
      best = row;
  }
  if (best === undefined) return [];
  const rest = best.mountPoint === "/" ? hostPath : hostPath.slice(best.mountPoint.length);
  const relative = best.root === "/" ? rest || "/" : `${best.root}${rest}`;
  return relative === hostPath || relative === "/" ? [] : [relative];
}
