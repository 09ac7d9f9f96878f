/**
 * Loading a `config.yaml` text in a temp folder (removed after each test), for
 * the tests of one config section: the loaded config, or the problems it was
 * refused with.
 */
import { afterEach } from "vitest";
import { loadConfig, ServerConfigError, type LoadedConfig } from "../../src/config/index.js";
import { tempDirs, writeFiles } from "./temp-dir.js";

/** What {@link configTexts} returns. */
export interface ConfigTexts {
  /** Loads `yaml` as `config.yaml`, with more files next to it; the folder is `dir`. */
  load(yaml: string, files?: Record<string, string>): Promise<LoadedConfig & { dir: string }>;
  /** The message of the `ServerConfigError` `yaml` is refused with (fails the test when it loads). */
  problems(yaml: string): Promise<string>;
}

/**
 * Registers the temp-folder cleanup (call at the top of a test file).
 *
 * @returns the loaders
 */
export function configTexts(): ConfigTexts {
  const tmp = tempDirs();
  afterEach(() => tmp.cleanup());
  const load: ConfigTexts["load"] = async (yaml, files = {}) => {
    const dir = await tmp.make();
    await writeFiles(dir, { "config.yaml": yaml, ...files });
    return { ...(await loadConfig({ cwd: dir, env: {} })), dir };
  };
  return {
    load,
    async problems(yaml) {
      const err = await load(yaml).then(
        () => undefined,
        (e: unknown) => e,
      );
      if (!ServerConfigError.isInstance(err)) throw new Error(`expected a ServerConfigError, got ${String(err)}`);
      return err.message;
    },
  };
}
