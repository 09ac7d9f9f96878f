import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { RbacAuthorizationProvider } from "@deerflow/gateway";
import type { ServerConfig } from "../config/types.js";
import { loadServerAuthorization, toolAuthorizationOptions } from "./authorization-deps.js";

const EXAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../examples/plugin-example/index.js");
const lookup = { cwd: process.cwd(), configDir: process.cwd() };
/** Three models, `b` the default: the agent's fallback order starts with it. */
const models = { models: [{ name: "a" }, { name: "b" }, { name: "c" }], defaultModel: "b" } as unknown as ServerConfig;
const configOf = (authorization: ServerConfig["authorization"]) => ({ authorization }) as ServerConfig;

describe("loadServerAuthorization", () => {
  it("is off unless enabled", async () => {
    expect(await loadServerAuthorization(configOf(undefined), lookup)).toBeUndefined();
    expect(
      await loadServerAuthorization(configOf({ enabled: false, failClosed: true, defaultRole: "user" }), lookup),
    ).toBeUndefined();
    expect(toolAuthorizationOptions(undefined, models)).toEqual({});
  });

  it("builds the RBAC provider and hands the same one to the agent", async () => {
    const loaded = await loadServerAuthorization(
      configOf({
        enabled: true,
        failClosed: true,
        defaultRole: "user",
        provider: { kind: "rbac", options: { roles: { user: { tools: { deny: ["bash"] } } } } },
      }),
      lookup,
    );
    expect(loaded?.provider).toBeInstanceOf(RbacAuthorizationProvider);
    expect(toolAuthorizationOptions(loaded, models)).toEqual({
      authorization: {
        authorizer: loaded?.provider,
        failClosed: true,
        defaultRole: "user",
        modelNames: ["b", "a", "c"],
      },
    });
  });

  it("loads the example plugin: read-only users read, use no tool and only the first model", async () => {
    const loaded = await loadServerAuthorization(
      configOf({
        enabled: true,
        failClosed: true,
        defaultRole: "user",
        provider: {
          kind: "plugin",
          use: `${EXAMPLE}:ReadOnlyUsersAuthorization`,
          options: { read_only_users: ["auditor"], models: ["main"] },
        },
      }),
      lookup,
    );
    const p = loaded!.provider;
    const auditor = { role: "user", userId: "auditor" };
    expect((await p.allowsRoute(auditor, "threads:read")).allow).toBe(true);
    expect((await p.allowsRoute(auditor, "runs:create")).allow).toBe(false);
    expect((await p.allowsTool(auditor, "bash")).allow).toBe(false);
    expect((await p.allowsModel(auditor, "main")).allow).toBe(true);
    expect((await p.allowsModel(auditor, "big")).allow).toBe(false);
    expect((await p.allowsTool({ role: "user", userId: "alice" }, "bash")).allow).toBe(true);
    expect(() => p.allowsTool({ role: "intruder", userId: "x" }, "bash")).toThrow(/Unknown role/);
  });

  it("refuses a plugin that is not a provider", async () => {
    await expect(
      loadServerAuthorization(
        configOf({
          enabled: true,
          failClosed: true,
          defaultRole: "user",
          provider: { kind: "plugin", use: `${EXAMPLE}:CommandWordGuardrail`, options: {} },
        }),
        lookup,
      ),
    ).rejects.toThrow(/authorization provider/);
  });
});
