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

  /** @param initial - validated sections (see `validateToolsConfig`) */
  constructor(initial: ToolsConfig) {
    this.#config = initial;
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
