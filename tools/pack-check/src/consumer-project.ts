/**
 * A fresh project outside the workspace that installs packed tarballs the way
 * a third party installs the published packages: with npm, or with pnpm in
 * its strictest setting (no auto-installed peers, unmet peers fail the
 * install, nothing hoisted, so a package sees only what it declares).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describeResult, runCommand, type CommandResult } from "./run-command.js";

/** The package managers a consumer project can use. */
export type PackageManager = "npm" | "pnpm";

/** pnpm settings of the strict consumer. */
const STRICT_PNPM_NPMRC = ["auto-install-peers=false", "strict-peer-dependencies=true", "hoist=false", ""].join("\n");

/** Options of {@link ConsumerProject.create}. */
export interface ConsumerProjectOptions {
  /** The folder to create the project in (must not exist or be empty). */
  readonly dir: string;
  readonly manager: PackageManager;
  /** Every workspace tarball by package name: a workspace package always comes from here, never from the registry. */
  readonly tarballs: ReadonlyMap<string, string>;
  /** The specs the project will install directly (a workspace name stands for its tarball). */
  readonly direct: readonly string[];
}

/** A consumer project on disk. */
export class ConsumerProject {
  readonly dir: string;
  readonly manager: PackageManager;
  readonly #tarballs: ReadonlyMap<string, string>;

  private constructor(options: ConsumerProjectOptions) {
    this.dir = options.dir;
    this.manager = options.manager;
    this.#tarballs = options.tarballs;
  }

  /**
   * Writes package.json (and pnpm's .npmrc), with overrides that pin every
   * workspace package to its tarball wherever it is depended on. npm refuses
   * an override of a direct dependency that differs from it, and reuses a
   * direct tarball for transitive ranges anyway, so its overrides leave the
   * direct ones out; pnpm resolves each range on its own and needs them all.
   */
  static create(options: ConsumerProjectOptions): ConsumerProject {
    mkdirSync(options.dir, { recursive: true });
    const pinned = [...options.tarballs].filter(
      ([name]) => options.manager === "pnpm" || !options.direct.includes(name),
    );
    const overrides = Object.fromEntries(pinned.map(([name, file]) => [name, `file:${file}`]));
    const manifest: Record<string, unknown> = { name: "consumer", version: "1.0.0", private: true, type: "module" };
    if (options.manager === "npm") manifest["overrides"] = overrides;
    else manifest["pnpm"] = { overrides };
    writeFileSync(path.join(options.dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    if (options.manager === "pnpm") writeFileSync(path.join(options.dir, ".npmrc"), STRICT_PNPM_NPMRC);
    return new ConsumerProject(options);
  }

  /**
   * Installs `specs` (workspace names replaced by their tarballs), preferring
   * the package manager's cache to the registry.
   *
   * @throws with the package manager's output when the install fails.
   */
  async install(specs: readonly string[]): Promise<CommandResult> {
    const resolved = specs.map((spec) => this.#tarballs.get(spec) ?? spec);
    const args =
      this.manager === "npm"
        ? ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", ...resolved]
        : ["add", "--prefer-offline", "--reporter=append-only", ...resolved];
    const result = await runCommand(this.manager, args, { cwd: this.dir });
    if (result.code !== 0) throw new Error(describeResult(`${this.manager} ${args.join(" ")}`, result));
    return result;
  }
}
