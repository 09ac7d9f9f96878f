/**
 * Admin user management under `/api/v1/auth/users` (our addition): list,
 * create, change role or disable, delete. The last admin cannot be demoted,
 * disabled or deleted, and an admin cannot delete themselves.
 */
import { isDeerflowError } from "@deerflow/kernel";
import type { SystemRole, UserRecord } from "@deerflow/runtime";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { GatewayError } from "../errors.js";
import type { AccountsRuntime } from "./accounts-runtime.js";
import { toWireUser } from "./account-wire.js";
import { authError } from "./auth-error-detail.js";
import {
  createUserBodySchema,
  idParamsSchema,
  listUsersQuerySchema,
  patchUserBodySchema,
  userResponseSchema,
} from "./auth-schemas.js";
import { checkNewPassword } from "./new-password.js";
import { requireAdmin } from "./require-admin.js";

/** The 403 detail of the user-management routes. */
export const USERS_ADMIN_MESSAGE = "Admin privileges required to manage users.";

const userListSchema = {
  type: "object",
  required: ["users", "total"],
  properties: { users: { type: "array", items: userResponseSchema }, total: { type: "integer" } },
} as const;

/**
 * @param app - the `/api/v1/auth` context.
 * @param accounts - the accounts' parts.
 */
export function registerUserAdminRoutes(app: FastifyInstance, accounts: AccountsRuntime): void {
  const { store, hasher } = accounts;
  const admin = requireAdmin(USERS_ADMIN_MESSAGE);

  async function existing(id: string): Promise<UserRecord> {
    const user = await store.getUser(id);
    if (user === undefined) throw authError("NOT_FOUND", "user_not_found", "User not found");
    return user;
  }

  /** Refuses to leave the deployment without an active admin. */
  async function keepAnAdmin(user: UserRecord): Promise<void> {
    if (user.systemRole !== "admin" || user.disabled) return;
    const admins = (await store.listUsers({ limit: 1000 })).filter((u) => u.systemRole === "admin" && !u.disabled);
    if (admins.length <= 1)
      throw new GatewayError("CONFLICT", "The last active admin cannot be removed, demoted or disabled");
  }

  function callerId(request: FastifyRequest): string | undefined {
    return request.account?.user.userId;
  }

  app.get<{ Querystring: { limit: number; offset: number } }>(
    "/users",
    {
      onRequest: admin,
      schema: {
        summary: "List users (admin)",
        tags: ["auth"],
        querystring: listUsersQuerySchema,
        response: { 200: userListSchema },
        "x-errors": [403],
      },
    },
    async (request) => {
      const [users, total] = await Promise.all([store.listUsers(request.query), store.countUsers()]);
      return { users: users.map(toWireUser), total };
    },
  );

  app.post<{ Body: { email: string; password: string; system_role: SystemRole } }>(
    "/users",
    {
      onRequest: admin,
      schema: {
        summary: "Create a user (admin)",
        tags: ["auth"],
        body: createUserBodySchema,
        response: { 201: userResponseSchema },
        "x-errors": [400, 403],
      },
    },
    async (request, reply) => {
      checkNewPassword(request.body.password, "password");
      try {
        const user = await store.createUser({
          email: request.body.email,
          passwordHash: await hasher.hash(request.body.password),
          systemRole: request.body.system_role,
        });
        return reply.code(201).send(toWireUser(user));
      } catch (err) {
        if (isDeerflowError(err) && err.code === "EMAIL_EXISTS") {
          throw authError("BAD_REQUEST", "email_already_exists", "Email already registered");
        }
        throw err;
      }
    },
  );

  app.patch<{ Params: { id: string }; Body: { system_role?: SystemRole; disabled?: boolean } }>(
    "/users/:id",
    {
      onRequest: admin,
      schema: {
        summary: "Change a user's role or disable them (admin); disabling signs them out",
        tags: ["auth"],
        params: idParamsSchema,
        body: patchUserBodySchema,
        response: { 200: userResponseSchema },
        "x-errors": [403, 404, 409],
      },
    },
    async (request) => {
      const user = await existing(request.params.id);
      const { system_role: role, disabled } = request.body;
      if ((role !== undefined && role !== "admin") || disabled === true) await keepAnAdmin(user);
      const updated = await store.updateUser(user.userId, {
        ...(role === undefined ? {} : { systemRole: role }),
        ...(disabled === undefined ? {} : { disabled }),
      });
      if (disabled === true) await store.deleteUserSessions(user.userId);
      return toWireUser(updated);
    },
  );

  app.delete<{ Params: { id: string } }>(
    "/users/:id",
    {
      onRequest: admin,
      schema: {
        summary: "Delete a user with their sessions and API keys (admin)",
        tags: ["auth"],
        params: idParamsSchema,
        response: { 204: { type: "null" } },
        "x-errors": [403, 404, 409],
      },
    },
    async (request, reply) => {
      const user = await existing(request.params.id);
      if (user.userId === callerId(request)) throw new GatewayError("CONFLICT", "You cannot delete your own account");
      await keepAnAdmin(user);
      await store.deleteUser(user.userId);
      return reply.code(204).send();
    },
  );
}
