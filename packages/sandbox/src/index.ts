/**
 * `@deerflow/sandbox`: a computer of the agent's own.
 *
 * - {@link Sandbox} / {@link SandboxProvider}: the contracts, with virtual paths
 *   (`/mnt/user-data/{workspace,uploads,outputs}`, `/mnt/skills` read-only).
 * - {@link LocalSandboxProvider}: per-thread folders, isolated with bubblewrap
 *   ({@link BubblewrapRunner}); host execution only with `allowHostBash`.
 * - {@link RemoteSandboxProvider}: sandboxes served by the sandbox HTTP service
 *   (`@deerflow/sandbox/server`, bin `deerflow-sandbox-server`).
 * - {@link createSandboxTools}: the agent tools `bash`, `ls`, `glob`, `grep`,
 *   `read_file`, `write_file`, `str_replace`.
 * - `@deerflow/sandbox/testing`: the conformance kit for provider authors.
 *
 * @packageDocumentation
 */

// Contracts
export type {
  ExecuteOptions,
  ExecuteResult,
  GlobOptions,
  GrepMatch,
  GrepOptions,
  ReadFileOptions,
  Sandbox,
  SearchResult,
  WriteFileOptions,
} from "./sandbox.js";
export type { SandboxProvider } from "./provider.js";
export type { Mount } from "./mount.js";
export { SandboxError, isDeerflowError, type SandboxErrorCode } from "./errors.js";
export { silentLogger, type Logger } from "./logger.js";
export * from "./limits.js";
export { isSandboxProvider, loadSandboxProvider, parseProviderUse, type ProviderSpec } from "./provider-loader.js";

// Command runners
export type { CommandRunner, CommandSpec, ResourceLimits } from "./exec/command-runner.js";
export {
  BubblewrapRunner,
  DEFAULT_SANDBOX_UID,
  DEFAULT_TMP_BYTES,
  type BubblewrapExecutorOptions,
  type BubblewrapRunnerOptions,
} from "./exec/bubblewrap-runner.js";
export {
  DEFAULT_EXECUTOR_IDLE_MS,
  DEFAULT_MAX_EXECUTORS,
  EXECUTOR_START_BACKOFF_MS,
} from "./exec/executor/executor-pool.js";
export { DEFAULT_EXECUTOR_START_TIMEOUT_MS } from "./exec/executor/executor-session.js";
export { MIN_EXECUTOR_LIMITS } from "./exec/executor/executor-program.js";
export {
  PER_SANDBOX_UID_BASE,
  PER_SANDBOX_UID_SPAN,
  perSandboxIdentity,
  type SandboxIdentity,
} from "./exec/ownership.js";
export { HostRunner, type HostRunnerOptions } from "./exec/host-runner.js";
export {
  createDefaultRunner,
  DisabledRunner,
  HOST_EXECUTION_DISABLED_MESSAGE,
  type DefaultRunnerOptions,
} from "./exec/default-runner.js";
export { isSecretName, sandboxEnvironment, scrubEnvironment, validateEnvironment } from "./exec/environment.js";
export { truncationNotice } from "./exec/output-capture.js";
export { ETC_ALLOWLIST } from "./exec/host-layout.js";

// Resource bounds: cgroups (memory incl. shared memory and /tmp, pids, CPU weight) and the disk quota
export type {
  CgroupBounds,
  CgroupController,
  CgroupMemoryEvents,
  CgroupMemoryStatus,
  CgroupVersion,
  CommandCgroup,
  EnforcedBounds,
  SandboxCgroup,
} from "./cgroups/cgroup-types.js";
export {
  DEFAULT_CPU_WEIGHT,
  MAX_CPU_WEIGHT,
  MIN_CPU_WEIGHT,
  PIDS_HEADROOM,
  cgroupBoundsFromLimits,
} from "./cgroups/cgroup-bounds.js";
export { CgroupV1Controller, type V1Controller, type V1ParentDirs } from "./cgroups/cgroup-v1.js";
export { CgroupV2Controller, type V2Controller } from "./cgroups/cgroup-v2.js";
export { NoCgroupController } from "./cgroups/no-cgroup.js";
export {
  DEFAULT_CGROUP_PARENT,
  SERVER_LEAF_CGROUP,
  detectCgroups,
  type CgroupMode,
  type DetectCgroupsOptions,
} from "./cgroups/detect-cgroups.js";
export { GATE_OPEN_LINE, gatedCommand } from "./cgroups/start-gate.js";
export {
  DEFAULT_QUOTA_FILES,
  DEFAULT_QUOTA_MAX_AGE_MS,
  DEFAULT_QUOTA_POLL_MS,
  DiskQuota,
  type DiskQuotaLimits,
  type DiskQuotaOptions,
  type QuotaWriteChange,
} from "./quota/disk-quota.js";
export { measureDiskUsage, type DiskUsage } from "./quota/disk-usage.js";
export { SandboxBounds, type SandboxBoundsOptions, type SandboxBoundsStatus } from "./bounds/sandbox-bounds.js";
export { DISK_QUOTA_NOTICE_PREFIX, MEMORY_LIMIT_NOTICE_PREFIX } from "./bounds/bound-messages.js";

// Local sandbox
export { LocalSandbox, type LocalSandboxOptions } from "./local/local-sandbox.js";
export {
  createLocalSandboxProvider,
  DEFAULT_MAX_CACHED_SANDBOXES,
  LocalSandboxProvider,
  type CreateLocalSandboxProviderOptions,
  type LocalSandboxProviderBaseOptions,
  type LocalSandboxProviderOptions,
  type RunnerContext,
  type RunnerFactory,
  type ThreadPaths,
  type UserSkillsMountConfig,
} from "./local/local-sandbox-provider.js";
export type { ExtraMountConfig } from "./local/provider-config.js";
export {
  USER_DATA_AREAS,
  threadUserDataDir,
  type ThreadFolderScope,
  type UserDataArea,
} from "./local/thread-layout.js";
export { hostToVirtual, normalizeVirtualPath } from "./paths/virtual-paths.js";
export { IGNORE_PATTERNS, isIgnoredName } from "./search/ignore.js";
export { compileGlob, type GlobMatcher } from "./search/glob-pattern.js";

// Remote sandbox client
export * from "./remote/client/index.js";

// Agent tools
export * from "./tools/index.js";
