/**
 * Where remote sandboxes live. {@link RemoteSandboxProvider} decides when to
 * create, reuse and destroy them; a backend only carries out those decisions.
 *
 * `HttpProvisionerBackend` speaks the `/api/sandboxes` provisioner API, served
 * by this package's sandbox service and by DeerFlow's Kubernetes provisioner
 * alike; a backend that drives Kubernetes, Docker or a cloud API directly
 * implements this interface instead.
 */

/** Where a sandbox answers. */
export interface SandboxEndpoint {
  /** Base URL of the sandbox's `/v1/*` API, e.g. `http://host:8080/sandboxes/<id>`. */
  readonly url: string;
}

/** One sandbox the backend knows about. */
export interface SandboxListing extends SandboxEndpoint {
  readonly id: string;
}

/** Creates, finds and destroys sandboxes by id. Every method may throw a `SandboxError` (`UNAVAILABLE` when unreachable). */
export interface SandboxBackend {
  /**
   * Starts the sandbox `id` for a thread (idempotent for the same triple).
   * It may not be ready yet: the provider polls its readiness.
   */
  create(id: string, threadId: string, userId: string): Promise<SandboxEndpoint>;
  /** The running sandbox `id` (e.g. left by an earlier process), or null when there is none. */
  discover(id: string): Promise<SandboxEndpoint | null>;
  /** Stops the sandbox `id`; succeeds when it is already gone. */
  destroy(id: string): Promise<void>;
  /** Every sandbox the backend runs (also other processes' ones). */
  list(): Promise<readonly SandboxListing[]>;
  /** True when the sandbox `id` exists and runs. */
  isAlive(id: string): Promise<boolean>;
}
