/** Every file path a manifest promises to consumers: `main`, `types`, `bin` and each `exports` target. */
export function declaredTargets(manifest: Record<string, unknown>): string[];
/** Problems that forbid packing the package in `pkgDir` (missing or stale build); empty when it may be packed. */
export function checkPackageBuild(pkgDir: string): string[];
/** The private workspace package that a published build must bundle, never import. */
export const PRIVATE_KERNEL: "@deerflow/kernel";
