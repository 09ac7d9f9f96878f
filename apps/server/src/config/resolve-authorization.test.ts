import { describe, expect, it } from "vitest";
import { configTexts } from "../../test/support/config-text.js";

const { load: loadText, problems } = configTexts();
const load = async (yaml: string) => (await loadText(yaml)).config;

describe("config: authorization", () => {
  it("defaults to DeerFlow's: off, fail_closed, default_role user", async () => {
    const c = await load("agent: { name: DeerFlow }\n");
    expect(c.authorization).toEqual({ enabled: false, failClosed: true, defaultRole: "user" });
  });

  it("reads DeerFlow's keys; its class path names the built-in RBAC provider", async () => {
    const c = await load(`
authorization:
  enabled: true
  fail_closed: false
  default_role: guest
  provider:
    use: deerflow.authz.rbac:RbacAuthorizationProvider
    config:
      roles:
        guest: { tools: { allow: [web_search] } }
`);
    expect(c.authorization).toEqual({
      enabled: true,
      failClosed: false,
      defaultRole: "guest",
      provider: { kind: "rbac", options: { roles: { guest: { tools: { allow: ["web_search"] } } } } },
    });
  });

  it("gives a configured key its role", async () => {
    const c = await load(`server:
  api_keys: [{ key: k-0123456789, user_id: gina, role: guest }, { key: k-9876543210, user_id: bob }]
`);
    expect(c.server.apiKeyUsers).toEqual([
      { key: "k-0123456789", userId: "gina", admin: false, role: "guest" },
      { key: "k-9876543210", userId: "bob", admin: false },
    ]);
  });

  it("keeps a plugin's config as written", async () => {
    const c = await load(
      "authorization: { enabled: true, provider: { use: './authz.js:Policy', config: { x: 1 } } }\n",
    );
    expect(c.authorization?.provider).toEqual({ kind: "plugin", use: "./authz.js:Policy", options: { x: 1 } });
  });

  it("names the key of each mistake: no provider, a bad use, a policy typo, an undefined default role", async () => {
    expect(await problems("authorization: { enabled: true }\n")).toContain(
      "authorization.provider: is required when authorization.enabled is true (e.g. use: rbac with config.roles)",
    );
    expect(await problems("authorization: { enabled: true, provider: { use: nonsense } }\n")).toContain(
      'authorization.provider.use: must be "rbac" or "<module>:<export>", got "nonsense"',
    );
    expect(
      await problems(
        "authorization: { enabled: true, provider: { use: rbac, config: { roles: { user: { tools: { alow: [x] } } } } } }\n",
      ),
    ).toContain("authorization.provider.config: roles.user.tools has unknown keys alow (allow, deny)");
    expect(
      await problems("authorization: { enabled: true, provider: { use: rbac, config: { roles: { admin: {} } } } }\n"),
    ).toContain("authorization.default_role: Unknown role 'user'; known roles: admin");
    expect(await problems("authorization: { enabled: yes-please }\n")).not.toEqual([]);
    expect(
      await problems(`server:
  api_keys: [{ key: k-0123456789, user_id: bob, role: guest }]
authorization: { enabled: true, provider: { use: rbac, config: { roles: { user: {}, admin: {} } } } }
`),
    ).toContain("server.api_keys[0].role: 'guest' is not a role of authorization.provider.config.roles (user, admin)");
  });
});
