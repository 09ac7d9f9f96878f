/**
 * The current `tools:` configuration. Built-in tools read their options here
 * at call time, so a changed `config.yaml` applies to the next call without a
 * restart (DeerFlow reads `get_tool_config(name)` per call the same way).
 */
import type { ToolEntry, ToolsConfig } from "./tool-entry.js";

/** Holds the validated sections; swapped whole by {@link ToolConfigStore.replace}. */
export class ToolConfigStore {
  #config: ToolsConfig;
  #version = 0;
  readonly #refresh: (() => Promise<void>) | undefined;

  /**
   * @param initial - validated sections (see `validateToolsConfig`)
   * @param options - `refresh`: called before each tool call reads its options (the server checks
   *   whether `config.yaml` changed there and calls {@link ToolConfigStore.replace})
   */
  constructor(initial: ToolsConfig, options: { readonly refresh?: () => Promise<void> } = {}) {
    this.#config = initial;
    this.#refresh = options.refresh;
  }

  /** The sections after a refresh (what a tool call reads). */
  async current(): Promise<ToolsConfig> {
    if (this.#refresh !== undefined) await this.#refresh();
    return this.#config;
  }

  /** The current sections. */
  get config(): ToolsConfig {
    return this.#config;
  }

  /** Bumped by every {@link ToolConfigStore.replace}. */
  get version(): number {
    return this.#version;
  }

  /**
   * The current entry of a tool.
   *
   * @param name - the entry's `name`
   * @returns the entry, or `undefined` once it was removed from the config
   */
  entry(name: string): ToolEntry | undefined {
    return this.#config.tools.find((t) => t.name === name);
  }

  /** Installs newly validated sections; calls already running keep the options they read. */
  replace(next: ToolsConfig): void {
    this.#config = next;
    this.#version++;
  }
}
