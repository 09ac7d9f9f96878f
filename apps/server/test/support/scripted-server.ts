/**
 * The real server with its one model (`main`) on the scripted OpenAI-compatible
 * endpoint of `@deerflow/agent/testing`, host bash allowed and data under the
 * temp folder: what the end-to-end tests of the lead agent's middlewares start.
 */
import { startScriptedOpenAI, type Script, type ScriptedOpenAI } from "@deerflow/agent/testing";
import { scriptedModelsYaml } from "./scripted-models.js";
import { tempDirs } from "./temp-dir.js";
import { startServer, type TestServer } from "./server-harness.js";

/** A started {@link startScriptedServer}. */
export interface ScriptedServer {
  readonly openai: ScriptedOpenAI;
  readonly t: TestServer;
  /** The folder holding `config.yaml` and `./data`. */
  readonly dir: string;
  /** Stops the server (no drain) and the endpoint, and removes the folder. */
  close(): Promise<void>;
}

/**
 * Starts the endpoint and the server.
 *
 * @param script - the endpoint's answers
 * @param extraYaml - more `config.yaml` sections (top-level keys)
 * @param options - `maxRetries` of the model (default 0); `models` for several models on the
 *   endpoint instead of the one `main` (see `scriptedModelsYaml`; no retries)
 * @returns the endpoint, the server and its folder
 */
export async function startScriptedServer(
  script: Script,
  extraYaml = "",
  options: { maxRetries?: number; models?: readonly string[] } = {},
): Promise<ScriptedServer> {
  const temp = tempDirs();
  const openai = await startScriptedOpenAI({ script });
  const dir = await temp.make();
  const models =
    options.models === undefined
      ? `
models:
  - name: main
    model: scripted
    base_url: ${openai.baseURL}
    api_key: test
    max_retries: ${options.maxRetries ?? 0}`
      : scriptedModelsYaml(openai.baseURL, options.models).trimEnd();
  const yaml = `${models}
sandbox:
  allow_host_bash: true
storage:
  data_dir: ./data
${extraYaml}`;
  const t = await startServer(dir, yaml);
  return {
    openai,
    t,
    dir,
    async close() {
      await t.server.close({ drain: false });
      await openai.close();
      await temp.cleanup();
    },
  };
}
