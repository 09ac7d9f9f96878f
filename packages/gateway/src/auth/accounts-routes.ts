/**
 * The `/api/v1/auth` plugin: DeerFlow's local account routes, per-user API
 * keys, admin user management and the plugins of `AccountsOptions.routes`.
 */
import formbody from "@fastify/formbody";
import type { FastifyInstance } from "fastify";
import type { AccountsRuntime } from "./accounts-runtime.js";
import { registerApiKeyRoutes } from "./api-key-routes.js";
import { AUTH_ROUTES_PREFIX } from "./csrf-guard.js";
import { registerLocalAuthRoutes } from "./local-auth-routes.js";
import { registerUserAdminRoutes } from "./user-admin-routes.js";

/**
 * @param app - the root instance.
 * @param accounts - the accounts' parts.
 */
export async function registerAccountsRoutes(app: FastifyInstance, accounts: AccountsRuntime): Promise<void> {
  await app.register(
    async (auth) => {
      // Scoped here: the login form is the only urlencoded body the gateway takes.
      await auth.register(formbody);
      registerLocalAuthRoutes(auth, accounts);
      registerApiKeyRoutes(auth, accounts);
      registerUserAdminRoutes(auth, accounts);
      for (const plugin of accounts.options.routes ?? []) {
        await auth.register(async (child) => plugin(child, { store: accounts.store, issuer: accounts.issuer }));
      }
    },
    { prefix: AUTH_ROUTES_PREFIX },
  );
}
