/**
 * `authorizationProviderConformance`: what every `AuthorizationProvider`
 * must do, given the fixture policy below in the RBAC shape its factory
 * receives — decisions are `{ allow: boolean }`, deny wins over allow, the
 * three resources are kept apart, an unknown or empty role is never allowed
 * (a throw is fine: the enforcement denies it), empty targets are never
 * allowed, and decisions do not change under concurrent calls.
 */
import type { ConformanceRunner } from "@deerflow/kernel";
import type {
  AuthorizationDecision,
  AuthorizationProvider,
  AuthorizationSubject,
} from "../authz/authorization-provider.js";
import type { RbacRole } from "../authz/rbac-authorization-provider.js";

/** The policy the kit's provider must enforce. */
export const CONFORMANCE_ROLES: Readonly<Record<string, RbacRole>> = Object.freeze({
  admin: {},
  user: {
    tools: { allow: "*", deny: ["bash"] },
    routes: { deny: ["threads:delete"] },
    models: { allow: ["fast"] },
  },
  guest: {
    tools: { allow: ["web_search", "bash"], deny: ["bash"] },
    routes: { allow: ["threads:read"] },
    models: { allow: false },
  },
});

/** Options of {@link authorizationProviderConformance}. */
export interface AuthorizationProviderConformanceOptions extends ConformanceRunner {
  /** Suite name, e.g. the class name. */
  readonly name: string;
  /** A provider enforcing these roles (the shape of `authorization.provider.config.roles`). */
  readonly makeProvider: (
    roles: Readonly<Record<string, RbacRole>>,
  ) => AuthorizationProvider | Promise<AuthorizationProvider>;
}

type Ask = "route" | "tool" | "model";

async function decide(p: AuthorizationProvider, ask: Ask, subject: AuthorizationSubject, target: string) {
  return ask === "route"
    ? p.allowsRoute(subject, target)
    : ask === "tool"
      ? p.allowsTool(subject, target)
      : p.allowsModel(subject, target);
}

/** `allow`, or `"denied"` when the provider threw (the enforcement denies a throw). */
async function outcome(p: AuthorizationProvider, ask: Ask, subject: AuthorizationSubject, target: string) {
  try {
    const d: AuthorizationDecision = await decide(p, ask, subject, target);
    return d.allow;
  } catch {
    return "denied";
  }
}

/**
 * Registers the suite with the injected test functions.
 *
 * @param options - name, `makeProvider`, `describe`, `it`, `expect`
 * @example
 * ```ts
 * import { describe, expect, it } from "vitest";
 * import { RbacAuthorizationProvider } from "@deerflow/gateway";
 * import { authorizationProviderConformance } from "@deerflow/gateway/testing";
 *
 * authorizationProviderConformance({
 *   name: "RbacAuthorizationProvider",
 *   makeProvider: (roles) => new RbacAuthorizationProvider({ roles }),
 *   describe, it, expect,
 * });
 * ```
 */
export function authorizationProviderConformance(options: AuthorizationProviderConformanceOptions): void {
  const { describe, it, expect } = options;
  const provider = () => Promise.resolve(options.makeProvider(CONFORMANCE_ROLES));
  const user = { role: "user", userId: "u1" };
  const guest = { role: "guest", userId: "g1" };

  describe(`authorizationProviderConformance: ${options.name}`, () => {
    it("has a name and answers decisions with a boolean allow", async () => {
      const p = await provider();
      expect(typeof p.name).toBe("string");
      const d = await p.allowsTool(user, "web_search");
      expect(typeof d.allow).toBe("boolean");
      expect(d.allow).toBe(true);
    });

    it("deny wins over allow, also when the allow list names the tool", async () => {
      const p = await provider();
      expect(await outcome(p, "tool", user, "bash")).toBe(false);
      expect(await outcome(p, "tool", guest, "bash")).toBe(false);
      expect(await outcome(p, "tool", guest, "web_search")).toBe(true);
      expect(await outcome(p, "tool", guest, "read_file")).toBe(false);
    });

    it("routes, tools and models are separate resources", async () => {
      const p = await provider();
      expect(await outcome(p, "route", user, "threads:delete")).toBe(false);
      expect(await outcome(p, "route", user, "threads:read")).toBe(true);
      expect(await outcome(p, "tool", user, "threads:delete")).toBe(true);
      expect(await outcome(p, "model", user, "fast")).toBe(true);
      expect(await outcome(p, "model", user, "smart")).toBe(false);
      expect(await outcome(p, "model", guest, "fast")).toBe(false);
      expect(await outcome(p, "route", guest, "runs:create")).toBe(false);
    });

    it("a role with no rules for a resource is unrestricted on it", async () => {
      const p = await provider();
      for (const ask of ["route", "tool", "model"] as const)
        expect(await outcome(p, ask, { role: "admin" }, "anything"), ask).toBe(true);
    });

    it("an unknown, empty or missing role is never allowed", async () => {
      const p = await provider();
      for (const role of ["intruder", "", "__proto__", "constructor", "ADMIN"]) {
        for (const ask of ["route", "tool", "model"] as const)
          expect(await outcome(p, ask, { role }, "web_search"), `${ask} for role '${role}'`).not.toBe(true);
      }
      expect(await outcome(p, "tool", {} as AuthorizationSubject, "web_search")).not.toBe(true);
    });

    it("an empty or non-string target is never allowed", async () => {
      const p = await provider();
      for (const target of ["", undefined, null, 42])
        expect(await outcome(p, "tool", { role: "admin" }, target as unknown as string)).not.toBe(true);
    });

    it("names match exactly (no prefixes, no case folding)", async () => {
      const p = await provider();
      expect(await outcome(p, "tool", user, "Bash")).toBe(true);
      expect(await outcome(p, "tool", guest, "web_search_2")).toBe(false);
      expect(await outcome(p, "tool", guest, "WEB_SEARCH")).toBe(false);
    });

    it("concurrent decisions agree with sequential ones", async () => {
      const p = await provider();
      const asks = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? "bash" : "web_search"));
      const results = await Promise.all(asks.map((t) => outcome(p, "tool", guest, t)));
      expect(results).toEqual(asks.map((t) => t === "web_search"));
    });
  });
}
