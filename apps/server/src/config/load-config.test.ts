import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig, ServerConfigError } from "./index.js";
import { tempDirs, writeFiles } from "../../test/support/temp-dir.js";

const tmp = tempDirs();
afterEach(() => tmp.cleanup());

async function load(yaml: string | undefined, env: NodeJS.ProcessEnv = {}) {
  const dir = await tmp.make();
  if (yaml !== undefined) await writeFiles(dir, { "config.yaml": yaml });
  return { dir, loaded: await loadConfig({ cwd: dir, env }) };
}

async function loadError(yaml: string, env: NodeJS.ProcessEnv = {}): Promise<ServerConfigError> {
  const err = await load(yaml, env).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ServerConfigError.isInstance(err)) throw new Error(`expected a ServerConfigError, got ${String(err)}`);
  return err;
}

describe("loadConfig: embedded defaults", () => {
  it("gives a valid configuration without any config file", async () => {
    const { dir, loaded } = await load(undefined);
    const c = loaded.config;
    expect(loaded.file).toBeUndefined();
    expect(c.models).toHaveLength(1);
    expect(c.models[0]).toMatchObject({ name: "demo", use: { kind: "demo" } });
    expect(c.defaultModel).toBe("demo");
    expect(c.runtime.streamBridge).toEqual({ type: "memory" });
    expect(c.runtime.checkpointer).toEqual({
      type: "file",
      path: path.join(dir, ".deerflow-data", "checkpoints.sqlite"),
    });
    expect(c.runtime.runStore).toEqual({ type: "file", path: path.join(dir, ".deerflow-data", "runs.sqlite") });
    expect(c.runtime.checkpointDurability).toBe("async");
    expect(c.sandbox.use).toEqual({ kind: "local" });
    expect(c.sandbox.allowHostBash).toBe(false);
    expect(c.storage.dataDir).toBe(path.join(dir, ".deerflow-data"));
    expect(c.server).toMatchObject({
      host: "127.0.0.1",
      port: 2024,
      corsOrigins: [],
      apiKeys: [],
      bodyLimit: 10 * 1024 * 1024,
    });
    expect(c.skills).toMatchObject({
      enabled: true,
      path: path.join(dir, "skills"),
      containerPath: "/mnt/skills",
      promptMode: "auto",
      scanners: [{ kind: "static" }],
    });
    expect(c.subagents).toMatchObject({ enabled: true, maxConcurrent: 3, maxTotalPerRun: 6, timeoutMs: 1_800_000 });
    expect(c.extensionsConfigPath).toBe(path.join(dir, "extensions_config.json"));
    expect(loaded.extensions).toMatchObject({ exists: false, mcpServers: {} });
  });

  it("treats an empty file and empty sections as unset", async () => {
    const { loaded } = await load("server:\nmodels:\nsandbox:\n");
    expect(loaded.config.server.port).toBe(2024);
    expect(loaded.config.defaultModel).toBe("demo");
  });

  it("fails with CONFIG_NOT_FOUND for a named file that does not exist", async () => {
    const dir = await tmp.make();
    const err = await loadConfig({ cwd: dir, path: "missing.yaml", env: {} }).catch((e: unknown) => e);
    expect(ServerConfigError.isInstance(err) && err.code).toBe("CONFIG_NOT_FOUND");
    expect((err as Error).message).toContain("missing.yaml: file not found");
  });

  it("resolves relative paths against the config file's folder", async () => {
    const dir = await tmp.make();
    await writeFiles(dir, { "etc/config.yaml": "storage:\n  data_dir: ./data\nskills:\n  path: ../shared-skills\n" });
    const loaded = await loadConfig({ cwd: dir, path: "etc/config.yaml", env: {} });
    expect(loaded.config.storage.dataDir).toBe(path.join(dir, "etc", "data"));
    expect(loaded.config.skills.path).toBe(path.join(dir, "shared-skills"));
    expect(loaded.config.runtime.checkpointer).toEqual({
      type: "file",
      path: path.join(dir, "etc", "data", "checkpoints.sqlite"),
    });
  });

  it("fills model defaults and converts seconds to milliseconds", async () => {
    const { loaded } = await load(
      "models:\n  - name: gpt\n    model: gpt-4o-mini\n    timeout_seconds: 30\n    base_url: http://localhost:8000/v1\n",
    );
    expect(loaded.config.models[0]).toEqual({
      name: "gpt",
      use: { kind: "openai" },
      model: "gpt-4o-mini",
      baseUrl: "http://localhost:8000/v1",
      timeoutMs: 30_000,
      supportsVision: false,
      supportsThinking: false,
      options: {},
    });
    expect(loaded.config.defaultModel).toBe("gpt");
  });

  it("parses body_limit sizes", async () => {
    expect((await load("server:\n  body_limit: 2mb\n")).loaded.config.server.bodyLimit).toBe(2 * 1024 * 1024);
    expect((await load("server:\n  body_limit: 4096\n")).loaded.config.server.bodyLimit).toBe(4096);
    const err = await loadError("server:\n  body_limit: lots\n");
    expect(err.message).toBe(
      'config.yaml: server.body_limit: must be a positive number of bytes or a size like "10mb"',
    );
  });
});

describe("loadConfig: environment substitution", () => {
  it("replaces $VAR and ${VAR} in string values", async () => {
    const { loaded } = await load(
      "models:\n  - name: gpt\n    model: ${MODEL}\n    api_key: $KEY\n    base_url: http://${HOST}:8000/v1\n",
      {
        MODEL: "gpt-4o",
        KEY: "sk-secret",
        HOST: "llm.internal",
      },
    );
    expect(loaded.config.models[0]).toMatchObject({
      model: "gpt-4o",
      apiKey: "sk-secret",
      baseUrl: "http://llm.internal:8000/v1",
    });
  });

  it("keeps $$ as a literal $ and a $ not followed by a name", async () => {
    const { loaded } = await load('agent:\n  name: "Pay $$5, not $ 5 ($X)"\n', { X: "x" });
    expect(loaded.config.agent.name).toBe("Pay $5, not $ 5 (x)");
  });

  it("converts a whole-value reference to the number or boolean the schema expects", async () => {
    const { loaded } = await load("server:\n  port: ${PORT}\nsandbox:\n  allow_host_bash: $HOST_BASH\n", {
      PORT: "8080",
      HOST_BASH: "true",
    });
    expect(loaded.config.server.port).toBe(8080);
    expect(loaded.config.sandbox.allowHostBash).toBe(true);
  });

  it("reports a non-numeric value for a number as a type error at its key path", async () => {
    const err = await loadError("server:\n  port: ${PORT}\n", { PORT: "eighty" });
    expect(err.message).toBe("config.yaml: server.port: must be integer (got a string)");
  });

  it("names the key path and the variable when a variable is unset", async () => {
    const err = await loadError("models:\n  - name: gpt\n    model: gpt-4o\n    api_key: $OPENAI_KEY\n");
    expect(err.code).toBe("CONFIG_ENV");
    expect(err.message).toBe(
      'config.yaml: models[0].api_key: environment variable OPENAI_KEY is not set (referenced as "$OPENAI_KEY")',
    );
    expect(err.problems).toEqual([{ path: "models[0].api_key", message: expect.stringContaining("OPENAI_KEY") }]);
  });

  it("lists every unset variable", async () => {
    const err = await loadError(
      "runtime:\n  stream_bridge:\n    type: redis\n    redis_url: ${A}\nstorage:\n  data_dir: ${B}/data\n",
    );
    expect(err.problems.map((p) => p.path)).toEqual(["runtime.stream_bridge.redis_url", "storage.data_dir"]);
  });

  it("rejects a malformed ${...} reference", async () => {
    const err = await loadError("agent:\n  name: ${NOT-A-NAME}\n");
    expect(err.code).toBe("CONFIG_ENV");
    expect(err.message).toContain('agent.name: invalid variable reference "${NOT-A-NAME}"');
  });
});

describe("loadConfig: schema errors", () => {
  it("names the exact key path of a wrong type", async () => {
    const err = await loadError("models:\n  - name: gpt\n    model: gpt-4o\n    api_key: 12345\n");
    expect(err.code).toBe("CONFIG_INVALID");
    expect(err.message).toMatch(/^config\.yaml: models\[0\]\.api_key: must be string/);
    expect(err.message).not.toContain("12345");
  });

  it("names unknown keys as such, at any level", async () => {
    const err = await loadError("servr:\n  port: 1\nserver:\n  prot: 3\nruntime:\n  checkpointer:\n    kind: file\n");
    expect(err.message.split("\n")).toEqual([
      expect.stringMatching(/^config\.yaml: servr: unknown key \(allowed: server, models, default_model, /),
      "config.yaml: server.prot: unknown key (allowed: host, port, cors_origins, api_keys, body_limit)",
      "config.yaml: runtime.checkpointer.kind: unknown key (allowed: use, type, path, database_url, schema, options, durability)",
    ]);
  });

  it("reports missing required keys, enums, ranges and absolute paths", async () => {
    const err = await loadError(
      [
        "models:",
        "  - model: gpt-4o",
        "runtime:",
        "  stream_bridge:",
        "    type: kafka",
        "subagents:",
        "  max_concurrent: 9",
        "sandbox:",
        "  mounts:",
        "    - host_path: /srv/data",
        "      container_path: data",
      ].join("\n"),
    );
    expect(err.problems).toEqual(
      expect.arrayContaining([
        { path: "models[0].name", message: "is required" },
        { path: "runtime.stream_bridge.type", message: "must be one of: memory, redis" },
        { path: "subagents.max_concurrent", message: "must be <= 4" },
        { path: "sandbox.mounts[0].container_path", message: "must be an absolute path (start with /)" },
      ]),
    );
  });

  it("reads the sandbox limits, the CPU weight and the per-thread disk quota included", async () => {
    const { loaded } = await load(
      "sandbox:\n  limits:\n    memory_bytes: 536870912\n    processes: 64\n    cpu_weight: 50\n    disk_bytes: 1073741824\n    disk_files: 10000\n",
    );
    expect(loaded.config.sandbox.limits).toEqual({
      memoryBytes: 536870912,
      processes: 64,
      cpuWeight: 50,
      diskBytes: 1073741824,
      diskFiles: 10000,
    });
    const err = await loadError("sandbox:\n  limits:\n    cpu_weight: 0\n");
    expect(err.problems).toEqual([{ path: "sandbox.limits.cpu_weight", message: "must be >= 1" }]);
  });

  it("allows free-form plugin options", async () => {
    const { loaded } = await load(
      'sandbox:\n  use: "./sandbox.js:create"\n  options:\n    region: eu\n    nested: { a: 1 }\n',
    );
    expect(loaded.config.sandbox).toMatchObject({
      use: { kind: "plugin", use: "./sandbox.js:create" },
      options: { region: "eu", nested: { a: 1 } },
    });
  });

  it("checks cross-field rules with key paths", async () => {
    const err = await loadError(
      [
        "models:",
        "  - name: a",
        "    model: gpt-4o",
        "  - name: a",
        "    use: demo",
        "  - name: b",
        "  - name: c",
        "    use: not-a-plugin",
        "default_model: zzz",
        "subagents:",
        "  custom_agents:",
        "    general-purpose:",
        "      description: x",
        "      system_prompt: y",
        "runtime:",
        "  stream_bridge:",
        "    type: redis",
        "  run_store:",
        "    use: ./store.js:Store",
        "    type: memory",
      ].join("\n"),
    );
    expect(err.problems).toEqual([
      { path: "models[1].name", message: 'duplicate model name "a" (also models[0])' },
      { path: "models[2].model", message: "is required for OpenAI-compatible models (use: openai)" },
      {
        path: "models[3].use",
        message: 'must be "openai", "anthropic", "google", "demo" or "<module>:<export>", got "not-a-plugin"',
      },
      { path: "default_model", message: 'unknown model "zzz" (configured: a, a, b, c)' },
      { path: "subagents.custom_agents.general-purpose", message: expect.stringContaining("built-in subagent") },
      { path: "runtime.stream_bridge.redis_url", message: "is required for type redis (or set REDIS_URL)" },
      { path: "runtime.run_store.type", message: "set either use (a plugin) or type (a built-in), not both" },
    ]);
  });
});

describe("loadConfig: YAML syntax", () => {
  it("reports the line and column of a syntax error", async () => {
    const err = await loadError("server:\n  port: 1\n  host: [a\nmodels: []\n");
    expect(err.code).toBe("CONFIG_PARSE");
    expect(err.message).toMatch(/^config\.yaml: invalid YAML at line \d+, column \d+: /);
    expect(err.message).toMatch(/line 4/);
  });

  it("reports bad indentation at its line", async () => {
    const err = await loadError("server:\n  port: 1\n host: x\n");
    expect(err.message).toContain("config.yaml: invalid YAML at line 3, column 2: bad indentation of a mapping entry");
  });

  it("rejects duplicate keys", async () => {
    const err = await loadError("server:\n  port: 1\n  port: 2\n");
    expect(err.message).toContain("duplicated mapping key");
  });

  it("rejects a document that is not a mapping", async () => {
    const err = await loadError("- a\n- b\n");
    expect(err.message).toBe(
      "config.yaml: the top level must be a mapping of sections (server:, models:, ...), got a list",
    );
  });

  it("uses YAML 1.2 core schema: yes stays a string", async () => {
    const err = await loadError("sandbox:\n  allow_host_bash: yes\n");
    expect(err.message).toBe("config.yaml: sandbox.allow_host_bash: must be boolean (got a string)");
  });
});

describe("loadConfig: runtime selection", () => {
  const env = {
    REDIS_URL: "redis://:r3dis-pass@redis:6379/0",
    DATABASE_URL: "postgres://deer:pg-pass@db:5432/deerflow",
  };

  it("selects Redis and PostgreSQL from REDIS_URL and DATABASE_URL", async () => {
    const { loaded } = await load(undefined, env);
    expect(loaded.config.runtime.streamBridge).toEqual({ type: "redis", redisUrl: env.REDIS_URL });
    expect(loaded.config.runtime.runStore).toEqual({ type: "postgres", databaseUrl: env.DATABASE_URL });
    expect(loaded.config.runtime.checkpointer).toEqual({ type: "postgres", databaseUrl: env.DATABASE_URL });
    expect(loaded.provenance["runtime.stream_bridge"]).toBe("environment (REDIS_URL is set)");
    expect(loaded.provenance["runtime.checkpointer"]).toBe("environment (DATABASE_URL is set)");
  });

  it("keeps what the config says over the environment", async () => {
    const { loaded } = await load(
      "runtime:\n  stream_bridge:\n    type: memory\n  checkpointer:\n    type: file\n    path: ./cp.sqlite\n",
      env,
    );
    expect(loaded.config.runtime.streamBridge).toEqual({ type: "memory" });
    expect(loaded.config.runtime.checkpointer).toMatchObject({ type: "file" });
    expect(loaded.config.runtime.runStore).toEqual({ type: "postgres", databaseUrl: env.DATABASE_URL });
  });

  it("reads the checkpoint durability of runs and refuses an unknown one", async () => {
    const { loaded } = await load("runtime:\n  checkpointer:\n    durability: exit\n", {});
    expect(loaded.config.runtime.checkpointDurability).toBe("exit");
    expect(loaded.config.runtime.checkpointer.type).toBe("file");
    const err = await loadError("runtime:\n  checkpointer:\n    durability: never\n");
    expect(err.problems.map((p) => p.path)).toEqual(["runtime.checkpointer.durability"]);
  });

  it("uses REDIS_URL for a configured redis bridge without redis_url", async () => {
    const { loaded } = await load("runtime:\n  stream_bridge:\n    type: redis\n    max_events_per_run: 500\n", {
      REDIS_URL: env.REDIS_URL,
    });
    expect(loaded.config.runtime.streamBridge).toEqual({
      type: "redis",
      redisUrl: env.REDIS_URL,
      maxEventsPerRun: 500,
    });
    expect(loaded.config.runtime.checkpointer.type).toBe("file");
  });

  it("ignores empty environment values", async () => {
    const { loaded } = await load(undefined, { REDIS_URL: "", DATABASE_URL: "  " });
    expect(loaded.config.runtime.streamBridge.type).toBe("memory");
    expect(loaded.config.runtime.checkpointer.type).toBe("file");
  });

  it("accepts plugins for runtime components", async () => {
    const { loaded } = await load(
      'runtime:\n  checkpointer:\n    use: "@acme/savers:MySaver"\n    options:\n      bucket: b\n',
    );
    expect(loaded.config.runtime.checkpointer).toEqual({
      type: "plugin",
      use: "@acme/savers:MySaver",
      options: { bucket: "b" },
    });
  });
});
