/**
 * The argument vector of one bubblewrap command (pure; no filesystem access).
 *
 * Shape, outermost first:
 *
 * ```
 * prlimit --cpu --data --fsize --nofile [--nproc] --
 *   [root only: bwrap --dev-bind / / --tmpfs <stage> --bind <host_i> <stage>/<i> ... --die-with-parent --
 *               setpriv --reuid=<uid> --regid=<gid> --clear-groups --]
 *   bwrap --ro-bind /usr /usr --symlink usr/bin /bin ... --ro-bind-try /etc/<allowed> ...
 *         --proc /proc --dev /dev [--size N] --tmpfs /tmp
 *         --bind|--ro-bind <src> <virtual path> ...
 *         --unshare-all --unshare-user --disable-userns --as-pid-1 [--share-net]
 *         --die-with-parent --new-session --hostname sandbox [--info-fd 3]
 *         --clearenv --setenv K V ... --chdir <virtual cwd> -- <shell> -c <command>
 * ```
 *
 * The sandbox executor uses the same line with its own program (`argv`) and
 * its script bound from a descriptor (`dataFiles`, `--ro-bind-data`).
 *
 * Why the root-only stage: as root, the command must run as an unprivileged
 * uid (RLIMIT_NPROC is ignored for root, and root inside bubblewrap keeps
 * capabilities). An unprivileged bubblewrap can only bind host directories it
 * can reach, and thread directories often sit below `0700` parents
 * (`/root/...`, `mkdtemp`). A first, privileged bubblewrap therefore creates a
 * private mount namespace where each mount is bound under a fresh tmpfs; the
 * unprivileged one binds from there. Nothing runs in the outer namespace
 * except `setpriv` and the inner bubblewrap.
 *
 * No `timeout` wrapper: the runner kills the process group itself.
 */
import type { ResourceLimits } from "./command-runner.js";
import type { HostLayout } from "./host-layout.js";
import type { SandboxIdentity } from "./ownership.js";
import { prlimitArgs, type HardLimits } from "./rlimits.js";

/** Hostname inside the sandbox. */
const SANDBOX_HOSTNAME = "sandbox";

/** Where the privileged stage mounts its tmpfs (outer namespace only). */
const DEFAULT_STAGE_DIR = "/tmp";

/** One directory to bind, host side already resolved. */
export interface BindSpec {
  readonly virtualPath: string;
  readonly hostPath: string;
  readonly readOnly: boolean;
}

/** Everything {@link buildBubblewrapInvocation} needs. */
export interface BubblewrapInvocationInput {
  /** Absolute paths of the tools; `prlimit` optional (no limits without it), `setpriv` required with `dropTo`. */
  readonly tools: { readonly bwrap: string; readonly prlimit?: string; readonly setpriv?: string };
  readonly layout: HostLayout;
  readonly mounts: readonly BindSpec[];
  /** Virtual working directory. */
  readonly cwd: string;
  /** The complete environment inside the sandbox. */
  readonly env: Readonly<Record<string, string>>;
  /** Shell inside the sandbox, e.g. `/bin/bash`. */
  readonly shell: string;
  readonly command: string;
  readonly network: boolean;
  readonly limits: ResourceLimits;
  /** Run as this identity through the privileged stage (when the caller is root). */
  readonly dropTo?: SandboxIdentity;
  /** Apply RLIMIT_NPROC (only meaningful for a non-root uid). */
  readonly processLimit: boolean;
  /** Stage directory; default {@link DEFAULT_STAGE_DIR}. */
  readonly stageDir?: string;
  /** Hard limits to clamp to; default: this process's. */
  readonly hardLimits?: HardLimits;
  /** Have the sandboxing bubblewrap report its namespace init's pid on this fd (`--info-fd`). */
  readonly infoFd?: number;
  /** Program to run instead of `<shell> -c <command>` (the sandbox executor). */
  readonly argv?: readonly string[];
  /** Files whose content bubblewrap reads from an inherited descriptor and binds read-only (`--ro-bind-data`). */
  readonly dataFiles?: readonly { readonly fd: number; readonly path: string }[];
}

/** A ready-to-spawn command line. */
export interface BubblewrapInvocation {
  readonly file: string;
  readonly args: readonly string[];
  /** Host directories the command line mentions, for masking bubblewrap's own error messages. */
  readonly hostAliases: readonly { readonly virtualPath: string; readonly hostPath: string }[];
}

function depth(p: string): number {
  return p.split("/").length;
}

/**
 * Builds the command line.
 *
 * @param input - see {@link BubblewrapInvocationInput}.
 * @returns file and arguments to spawn.
 * @throws Error when `dropTo` is set without a `setpriv` path (a programming error).
 */
export function buildBubblewrapInvocation(input: BubblewrapInvocationInput): BubblewrapInvocation {
  const { tools, layout, dropTo } = input;
  const stageDir = input.stageDir ?? DEFAULT_STAGE_DIR;
  // Parents before children, so a nested mount lands on top of its parent.
  const mounts = [...input.mounts].sort(
    (a, b) => depth(a.virtualPath) - depth(b.virtualPath) || a.virtualPath.localeCompare(b.virtualPath),
  );
  const sources = mounts.map((m, i) => (dropTo === undefined ? m.hostPath : `${stageDir}/${i}`));

  const inner: string[] = [tools.bwrap, "--ro-bind", "/usr", "/usr"];
  for (const entry of layout.rootEntries) {
    if (entry.symlinkTarget !== undefined) inner.push("--symlink", entry.symlinkTarget, `/${entry.name}`);
    else inner.push("--ro-bind", `/${entry.name}`, `/${entry.name}`);
  }
  for (const etc of layout.etcPaths) inner.push("--ro-bind-try", etc, etc);
  inner.push("--proc", "/proc", "--dev", "/dev");
  if (input.limits.tmpBytes !== undefined) inner.push("--size", String(input.limits.tmpBytes));
  inner.push("--tmpfs", "/tmp");
  mounts.forEach((m, i) => inner.push(m.readOnly ? "--ro-bind" : "--bind", sources[i] as string, m.virtualPath));
  for (const file of input.dataFiles ?? []) inner.push("--ro-bind-data", String(file.fd), file.path);
  // bwrap's root is an unbounded tmpfs: make it read-only once every mount
  // point exists, so only /tmp (size-capped) and the rw mounts take writes.
  inner.push("--remount-ro", "/");
  // --as-pid-1: without it bubblewrap adds a reaper init that its monitor
  // process does not wait for; that init is orphaned at every exit and stays a
  // zombie of the sandbox uid wherever PID 1 does not reap (a Node server as
  // PID 1 in a container), eating the uid's RLIMIT_NPROC budget.
  inner.push("--unshare-all", "--unshare-user", "--disable-userns", "--as-pid-1");
  if (input.network) inner.push("--share-net");
  inner.push("--die-with-parent", "--new-session", "--hostname", SANDBOX_HOSTNAME);
  if (input.infoFd !== undefined) inner.push("--info-fd", String(input.infoFd));
  inner.push("--clearenv");
  for (const name of Object.keys(input.env).sort()) inner.push("--setenv", name, input.env[name] as string);
  inner.push("--chdir", input.cwd, "--", ...(input.argv ?? [input.shell, "-c", input.command]));

  let argv = inner;
  if (dropTo !== undefined) {
    if (tools.setpriv === undefined) throw new Error("setpriv is required to drop privileges");
    const outer: string[] = [tools.bwrap, "--dev-bind", "/", "/", "--tmpfs", stageDir];
    mounts.forEach((m, i) => outer.push(m.readOnly ? "--ro-bind" : "--bind", m.hostPath, sources[i] as string));
    outer.push("--die-with-parent", "--");
    argv = [
      ...outer,
      tools.setpriv,
      `--reuid=${dropTo.uid}`,
      `--regid=${dropTo.gid}`,
      "--clear-groups",
      "--",
      ...inner,
    ];
  }

  const limitArgs =
    tools.prlimit === undefined
      ? []
      : prlimitArgs(input.limits, {
          processes: input.processLimit,
          ...(input.hardLimits ? { hardLimits: input.hardLimits } : {}),
        });
  if (tools.prlimit !== undefined && limitArgs.length > 0) argv = [tools.prlimit, ...limitArgs, "--", ...argv];

  // Stage paths are left out: they are private to the outer namespace, and
  // masking `/tmp/<n>` would mangle the sandbox's own /tmp paths.
  const hostAliases = mounts.map((m) => ({ virtualPath: m.virtualPath, hostPath: m.hostPath }));
  const [file, ...args] = argv as [string, ...string[]];
  return { file, args, hostAliases };
}
