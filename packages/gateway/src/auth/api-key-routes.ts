/**
 * Per-user API keys under `/api/v1/auth/api-keys` (our addition to DeerFlow's
 * routes): each user lists, creates and revokes their own keys; the key is
 * shown once, at creation.
 */
import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { GatewayError } from "../errors.js";
import type { AccountsRuntime } from "./accounts-runtime.js";
import { toWireApiKey } from "./account-wire.js";
import { apiKeySchema, createApiKeyBodySchema, createdApiKeySchema, idParamsSchema } from "./auth-schemas.js";
import { requireAccount } from "./require-account.js";
import { mintUserApiKey } from "./user-api-key.js";

const DAY_MS = 24 * 3600 * 1000;

/**
 * @param app - the `/api/v1/auth` context.
 * @param accounts - the accounts' parts.
 */
export function registerApiKeyRoutes(app: FastifyInstance, accounts: AccountsRuntime): void {
  const { store, settings } = accounts;

  app.get(
    "/api-keys",
    {
      schema: {
        summary: "The caller's API keys (not revoked)",
        tags: ["auth"],
        response: {
          200: {
            type: "object",
            required: ["api_keys"],
            properties: { api_keys: { type: "array", items: apiKeySchema } },
          },
        },
      },
    },
    async (request) => {
      const { user } = requireAccount(request);
      const keys = await store.listApiKeys(user.userId);
      return { api_keys: keys.filter((k) => k.revokedAt === null).map(toWireApiKey) };
    },
  );

  app.post<{ Body: { name: string; expires_in_days?: number } }>(
    "/api-keys",
    {
      schema: {
        summary: "Create an API key for the caller; the key is in this answer only",
        tags: ["auth"],
        body: createApiKeyBodySchema,
        response: { 201: createdApiKeySchema },
      },
    },
    async (request, reply) => {
      const { user } = requireAccount(request);
      const minted = mintUserApiKey();
      const now = settings.now();
      const days = request.body.expires_in_days;
      const record = {
        keyId: randomUUID(),
        userId: user.userId,
        name: request.body.name,
        prefix: minted.prefix,
        keyHash: minted.keyHash,
        createdAt: now.toISOString(),
        expiresAt: days === undefined ? null : new Date(now.getTime() + days * DAY_MS).toISOString(),
        lastUsedAt: null,
        revokedAt: null,
      };
      await store.createApiKey(record);
      return reply.code(201).send({ ...toWireApiKey(record), key: minted.key });
    },
  );

  app.delete<{ Params: { id: string } }>(
    "/api-keys/:id",
    {
      schema: {
        summary: "Revoke one of the caller's API keys",
        tags: ["auth"],
        params: idParamsSchema,
        response: { 204: { type: "null" } },
        "x-errors": [404],
      },
    },
    async (request, reply) => {
      const { user } = requireAccount(request);
      // Another user's key is as unknown as a missing one.
      if (!(await store.revokeApiKey(user.userId, request.params.id))) {
        throw new GatewayError("NOT_FOUND", "API key not found");
      }
      return reply.code(204).send();
    },
  );
}
