/** Defaults of `config.yaml`, applied by `resolveConfig`. */
export const CONFIG_DEFAULTS = Object.freeze({
  host: "127.0.0.1",
  port: 2024,
  bodyLimitBytes: 10 * 1024 * 1024,
  /** The model used when `models:` is absent or empty. */
  demoModelName: "demo",
  skillsPath: "skills",
  skillsContainerPath: "/mnt/skills",
  skillsPromptMode: "auto",
  dataDir: ".deerflow-data",
  /** File-backed checkpointer, relative to the data dir. */
  checkpointFile: "checkpoints.sqlite",
  /** File-backed run store, relative to the data dir. */
  runStoreFile: "runs.sqlite",
  extensionsConfigFile: "extensions_config.json",
  sandboxCommandTimeoutSeconds: 600,
  subagentMaxConcurrent: 3,
  subagentMaxTotalPerRun: 6,
  subagentTimeoutSeconds: 1800,
  finishedRunsSeconds: 24 * 60 * 60,
  streamReplaySeconds: 60,
  agentName: "DeerFlow",
} as const);

/** Environment variables that switch the runtime to shared services when the config does not choose. */
export const SCALE_OUT_ENV = Object.freeze({ redisUrl: "REDIS_URL", databaseUrl: "DATABASE_URL" } as const);
