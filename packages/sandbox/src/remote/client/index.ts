/**
 * The remote sandbox client: `RemoteSandbox`, `RemoteSandboxProvider` and the
 * `SandboxBackend` seam with its HTTP provisioner implementation.
 */
export { systemClock, type Clock } from "./clock.js";
export {
  HttpProvisionerBackend,
  type HttpProvisionerBackendOptions,
  type ProvisionerTimeouts,
} from "./http-provisioner-backend.js";
export {
  DEFAULT_EXECUTE_GRACE_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  RemoteSandbox,
  type RemoteSandboxOptions,
} from "./remote-sandbox.js";
export { RemoteSandboxProvider, type RemoteProviderSnapshot } from "./remote-sandbox-provider.js";
export type { RemoteSandboxProviderOptions } from "./remote-sandbox-provider-options.js";
export type { SandboxBackend, SandboxEndpoint, SandboxListing } from "./sandbox-backend.js";
export { sandboxIdFor } from "./sandbox-id.js";
