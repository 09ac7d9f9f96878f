import { describe, expect, it } from "vitest";
import { authorizationProviderConformance } from "../testing/index.js";
import { AuthorizationError } from "./authorization-error.js";
import { RbacAuthorizationProvider, type RbacAuthorizationOptions } from "./rbac-authorization-provider.js";

authorizationProviderConformance({
  name: "RbacAuthorizationProvider",
  makeProvider: (roles) => new RbacAuthorizationProvider({ roles }),
  describe,
  it,
  expect,
});

const codeOf = (make: () => unknown): string | undefined => {
  try {
    make();
    return undefined;
  } catch (err) {
    return AuthorizationError.isInstance(err) ? err.code : "other";
  }
};

describe("RbacAuthorizationProvider", () => {
  it("gives DeerFlow's reason codes and denial text", () => {
    const rbac = new RbacAuthorizationProvider({ roles: { user: { tools: { deny: ["bash"] } }, admin: {} } });
    expect(rbac.allowsTool({ role: "user" }, "bash")).toEqual({
      allow: false,
      reasons: [{ code: "authz.denied", message: "role 'user' is denied 'bash' on resource 'tool'" }],
      policyId: "rbac:deny",
    });
    expect(rbac.allowsTool({ role: "user" }, "ls")).toMatchObject({ allow: true, policyId: "rbac:allow" });
    expect(rbac.allowsTool({ role: "admin" }, "bash")).toMatchObject({
      allow: true,
      reasons: [{ code: "authz.no_policy" }],
    });
  });

  it("allow false and an empty allow list deny everything; true and * allow everything", () => {
    const rbac = new RbacAuthorizationProvider({
      roles: {
        a: { models: { allow: false } },
        b: { models: { allow: [] } },
        c: { models: { allow: true } },
        d: { models: { allow: "*", deny: ["big"] } },
      },
    });
    expect(rbac.allowsModel({ role: "a" }, "m").allow).toBe(false);
    expect(rbac.allowsModel({ role: "b" }, "m").allow).toBe(false);
    expect(rbac.allowsModel({ role: "c" }, "m").allow).toBe(true);
    expect(rbac.allowsModel({ role: "d" }, "m").allow).toBe(true);
    expect(rbac.allowsModel({ role: "d" }, "big").allow).toBe(false);
  });

  it("throws ROLE_UNKNOWN for a role the policy does not define, and for inherited object keys", () => {
    const rbac = new RbacAuthorizationProvider({ roles: { user: {} } });
    expect(codeOf(() => rbac.allowsRoute({ role: "guest" }, "threads:read"))).toBe("ROLE_UNKNOWN");
    expect(codeOf(() => rbac.allowsRoute({ role: "toString" }, "threads:read"))).toBe("ROLE_UNKNOWN");
    expect(codeOf(() => rbac.allowsRoute({ role: "" }, "threads:read"))).toBe("TARGET_INVALID");
    expect(codeOf(() => rbac.validateRole("user"))).toBeUndefined();
  });

  it("refuses malformed policies at construction (a typo must not grant anything)", () => {
    const bad: unknown[] = [
      undefined,
      { roles: [] },
      { roles: { user: { tools: { alow: ["x"] } } } },
      { roles: { user: { tool: { allow: "*" } } } },
      { roles: { user: { tools: { allow: null } } } },
      { roles: { user: { tools: { deny: null } } } },
      { roles: { user: { tools: { allow: "all" } } } },
      { roles: { user: { tools: { allow: ["ok", ""] } } } },
      { roles: { user: { tools: { deny: "bash" } } } },
      { roles: { user: { tools: { deny: [1] } } } },
      { roles: { user: "all" } },
      { roles: { "": {} } },
      { roles: {}, extra: true },
    ];
    for (const options of bad)
      expect(
        codeOf(() => new RbacAuthorizationProvider(options as RbacAuthorizationOptions)),
        JSON.stringify(options),
      ).toBe("POLICY_INVALID");
  });

  it("does not change when the options object is mutated after construction", () => {
    const deny = ["bash"];
    const rbac = new RbacAuthorizationProvider({ roles: { user: { tools: { deny } } } });
    deny.length = 0;
    expect(rbac.allowsTool({ role: "user" }, "bash").allow).toBe(false);
  });
});
