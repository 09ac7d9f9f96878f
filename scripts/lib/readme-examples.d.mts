/** Every ```ts / ```typescript block of `<pkgDir>/README.md`, in order. */
export function readmeExamples(pkgDir: string): string[];
/** Typechecks every README block against the package source (see readme-examples.mjs). */
export function compileReadmeExamples(
  pkgDir: string,
  paths: Record<string, string[]>,
): { count: number; status: number | null; output: string };
