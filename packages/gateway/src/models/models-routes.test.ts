import { afterEach, describe, expect, it } from "vitest";
import type { ModelCatalog } from "../index.js";
import { ADMIN_KEY, USER_KEY, createFixture, type Fixture } from "../../test/support/fixture.js";

const catalog: ModelCatalog = {
  models: () => [
    {
      name: "gpt-4o",
      model: "gpt-4o-2024-08-06",
      displayName: "GPT-4o",
      description: "Fast",
      supportsThinking: false,
      supportsReasoningEffort: false,
    },
    { name: "deepseek-r1", model: "deepseek-reasoner", supportsThinking: true, supportsReasoningEffort: true },
  ],
  tokenUsageEnabled: true,
  // Admins may use every model; other callers only gpt-4o.
  allows: (principal, name) => principal.admin || name === "gpt-4o",
};

describe("/api/models", () => {
  let fx: Fixture | undefined;
  afterEach(async () => {
    await fx?.close();
    fx = undefined;
  });

  it("lists the models in DeerFlow's shape with token_usage", async () => {
    fx = await createFixture({ gateway: { models: catalog } });
    const res = await fx.app.inject({ url: "/api/models" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      models: [
        {
          name: "gpt-4o",
          model: "gpt-4o-2024-08-06",
          display_name: "GPT-4o",
          description: "Fast",
          supports_thinking: false,
          supports_reasoning_effort: false,
        },
        {
          name: "deepseek-r1",
          model: "deepseek-reasoner",
          display_name: null,
          description: null,
          supports_thinking: true,
          supports_reasoning_effort: true,
        },
      ],
      token_usage: { enabled: true },
    });
  });

  it("answers one model by name, 404 with DeerFlow's text for an unknown one", async () => {
    fx = await createFixture({ gateway: { models: { ...catalog, tokenUsageEnabled: false } } });
    const one = await fx.app.inject({ url: "/api/models/deepseek-r1" });
    expect(one.json()).toMatchObject({ name: "deepseek-r1", supports_thinking: true });
    const missing = await fx.app.inject({ url: "/api/models/nope" });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ detail: "Model 'nope' not found" });
    expect((await fx.app.inject({ url: "/api/models" })).json().token_usage).toEqual({ enabled: false });
  });

  it("filters the list by the catalog's rule and refuses a hidden model with 403", async () => {
    fx = await createFixture({ auth: true, gateway: { models: catalog } });
    const user = { "x-api-key": USER_KEY };
    const list = await fx.app.inject({ url: "/api/models", headers: user });
    expect(list.json().models.map((m: { name: string }) => m.name)).toEqual(["gpt-4o"]);
    const refused = await fx.app.inject({ url: "/api/models/deepseek-r1", headers: user });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ detail: "Model 'deepseek-r1' is not available for your role" });
    const admin = await fx.app.inject({ url: "/api/models", headers: { "x-api-key": ADMIN_KEY } });
    expect(admin.json().models).toHaveLength(2);
    expect((await fx.app.inject({ url: "/api/models" })).statusCode).toBe(401);
  });

  it("is absent without a catalog", async () => {
    fx = await createFixture();
    expect((await fx.app.inject({ url: "/api/models" })).statusCode).toBe(404);
  });
});
