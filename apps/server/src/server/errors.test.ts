import { DeerflowError, isDeerflowError } from "@deerflow/kernel";
import { describe, expect, it } from "vitest";
import { ServerConfigError } from "../config/errors.js";
import { ModelError } from "../models/errors.js";
import { PluginLoadError } from "../plugins/index.js";
import { ServerStartError } from "./errors.js";

// The server's typed errors, each with its own brand; one guard per class so a brand
// that is declared but never set (or shared by two classes) fails here.
interface ErrorClass {
  readonly brand: symbol;
  readonly name: string;
  isInstance(value: unknown): boolean;
}

const errors: { cls: ErrorClass; brand: string; err: Error & { code: string } }[] = [
  {
    cls: ServerStartError,
    brand: "@deerflow/server/server-error",
    err: new ServerStartError("SERVER_USAGE", "bad flag"),
  },
  {
    cls: ServerConfigError,
    brand: "@deerflow/server/config-error",
    err: new ServerConfigError("CONFIG_INVALID", "config.yaml: port: must be integer", {
      problems: [{ path: "port", message: "must be integer" }],
    }),
  },
  {
    cls: ModelError,
    brand: "@deerflow/server/model-error",
    err: new ModelError("MODEL_NOT_FOUND", "gpt", "no model gpt"),
  },
  {
    cls: PluginLoadError,
    brand: "@deerflow/plugin-error",
    err: new PluginLoadError("PLUGIN_NOT_FOUND", "x:y", "not found", { stage: "module" }),
  },
];

describe("the server's errors", () => {
  it.each(errors)("$brand is recognised by its own class only, and as a DeerFlow error", ({ cls, brand, err }) => {
    expect(Symbol.keyFor(cls.brand)).toBe(brand);
    expect(err.name).toBe(cls.name);
    expect(isDeerflowError(err)).toBe(true);
    for (const other of errors) expect(other.cls.isInstance(err)).toBe(other.cls === cls);
    expect(cls.isInstance(new DeerflowError(err.code, "base only"))).toBe(false);
  });

  it("keep their own fields and the cause", () => {
    const cause = new Error("boom");
    expect(new ModelError("MODEL_CREATE_FAILED", "gpt", "threw", { cause })).toMatchObject({ model: "gpt", cause });
    expect(new ServerConfigError("CONFIG_PARSE", "bad yaml", { cause }).problems).toEqual([]);
    expect(new ServerStartError("SERVER_COMPONENT_FAILED", "redis down", { cause }).cause).toBe(cause);
  });
});
