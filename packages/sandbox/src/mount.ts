/**
 * One host directory made visible inside a sandbox at a virtual path.
 * A sandbox's mounts never nest inside each other except where a more
 * specific mount deliberately overlays a parent (longest prefix wins).
 */
export interface Mount {
  /** Absolute virtual path, e.g. `/mnt/user-data/workspace`. No trailing slash. */
  readonly virtualPath: string;
  /** Absolute host path (existing directory). */
  readonly hostPath: string;
  readonly readOnly: boolean;
}
