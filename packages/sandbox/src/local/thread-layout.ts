/**
 * The host layout of a thread's data, owned by this package: the local
 * provider creates and mounts it, and anything else that serves the same
 * files (the gateway's thread-file routes) imports it from here rather than
 * spelling the folders again.
 *
 * ```text
 * <baseDir>/users/<userId>/threads/<threadId>/user-data/   ← USER_DATA_ROOT (/mnt/user-data) in the sandbox
 *                                                 ├── workspace/   ← /mnt/user-data/workspace
 *                                                 ├── uploads/     ← /mnt/user-data/uploads
 *                                                 └── outputs/     ← /mnt/user-data/outputs
 * ```
 */
import path from "node:path";

/** The three folders of a thread's user data, each mounted at `/mnt/user-data/<area>`. */
export const USER_DATA_AREAS = ["workspace", "uploads", "outputs"] as const;

/** One of {@link USER_DATA_AREAS}. */
export type UserDataArea = (typeof USER_DATA_AREAS)[number];

/** The thread whose folder is wanted. */
export interface ThreadFolderScope {
  readonly userId: string;
  readonly threadId: string;
}

/**
 * The host folder mounted as a thread's `/mnt/user-data`.
 *
 * @param baseDir - The provider's base folder (`LocalSandboxProvider`'s `baseDir`).
 * @param scope - The user and thread; both must already be checked to be single,
 *   safe path segments (no `/`, not `.` or `..`): this function only joins.
 * @returns `<baseDir>/users/<userId>/threads/<threadId>/user-data` (not created).
 * @example
 * ```ts
 * threadUserDataDir("/var/lib/deerflow", { userId: "default", threadId: "t1" });
 * // "/var/lib/deerflow/users/default/threads/t1/user-data"
 * ```
 */
export function threadUserDataDir(baseDir: string, scope: ThreadFolderScope): string {
  return path.join(baseDir, "users", scope.userId, "threads", scope.threadId, "user-data");
}
