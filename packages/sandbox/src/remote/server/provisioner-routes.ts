/**
 * `/api/sandboxes`: the provisioner API of DeerFlow's remote sandbox backend
 * (create, status, delete, list), served for the sandboxes this process hosts.
 * A client key sees and addresses only the sandboxes it created; the admin key
 * lists every owner's and addresses one with `?owner=<client id>`.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { SandboxError } from "../../errors.js";
import {
  sandboxPath,
  type CreateSandboxRequest,
  type DeleteSandboxResponse,
  type ListSandboxesResponse,
  type SandboxRecord,
} from "../wire/types.js";
import type { Principal } from "./auth.js";
import { principalOf } from "./request-principal.js";
import { createSandboxSchema, ownerQuerySchema, sandboxParamsSchema } from "./schemas.js";
import type { HostedSandbox, SandboxRegistry } from "./sandbox-registry.js";

/** Where `sandbox_url`s point. */
export type BaseUrlResolver = (request: FastifyRequest) => string;

/**
 * The default {@link BaseUrlResolver}: the scheme and `Host` the client used,
 * which is right behind port mappings; set `publicUrl` when a proxy rewrites them.
 *
 * @param request - The current request.
 * @returns E.g. `http://127.0.0.1:8080`.
 */
export function requestBaseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

function record(hosted: HostedSandbox, base: string, caller: Principal): SandboxRecord {
  return {
    sandbox_id: hosted.sandboxId,
    sandbox_url: `${base}${sandboxPath(hosted.sandboxId)}`,
    status: "Running",
    thread_id: hosted.threadId,
    user_id: hosted.userId,
    // Only the admin sees several owners; a client's answers stay DeerFlow's record.
    ...(caller.admin ? { owner: hosted.owner } : {}),
  };
}

type OwnedRequest = FastifyRequest<{ Params: { id: string }; Querystring: { owner?: string } }>;

/**
 * The namespace a per-sandbox provisioner request addresses: the caller's
 * own, or for the admin the client named by `?owner=`. A client naming
 * another owner gets the same 404 as for a missing sandbox.
 */
function addressedOwner(request: OwnedRequest): string | undefined {
  const caller = principalOf(request);
  const { owner } = request.query;
  if (caller.admin) {
    if (owner === undefined)
      throw new SandboxError(
        "INVALID_ARGUMENT",
        "owner: the admin key must name the sandbox's owner (?owner=<client id>)",
      );
    return owner;
  }
  return owner === undefined || owner === caller.clientId ? caller.clientId : undefined;
}

function requireAddressed(registry: SandboxRegistry, request: OwnedRequest): HostedSandbox {
  const owner = addressedOwner(request);
  // An unknown owner falls through to the registry's own 404, with the same message.
  return registry.require(owner ?? "", request.params.id);
}

/**
 * Registers the provisioner routes.
 *
 * @param app - The Fastify instance.
 * @param registry - The hosted sandboxes.
 * @param baseUrl - Builds the base of `sandbox_url`.
 */
export function registerProvisionerRoutes(
  app: FastifyInstance,
  registry: SandboxRegistry,
  baseUrl: BaseUrlResolver,
): void {
  app.post<{ Body: CreateSandboxRequest }>(
    "/api/sandboxes",
    { schema: { body: createSandboxSchema } },
    async (request): Promise<SandboxRecord> => {
      const caller = principalOf(request);
      if (caller.admin)
        throw new SandboxError(
          "PERMISSION_DENIED",
          "The admin key lists and stops sandboxes; create them with a client key",
        );
      const { sandbox_id, thread_id, user_id } = request.body;
      const hosted = await registry.acquire(caller.clientId, sandbox_id, thread_id, user_id ?? "default");
      return record(hosted, baseUrl(request), caller);
    },
  );

  app.get("/api/sandboxes", async (request): Promise<ListSandboxesResponse> => {
    const caller = principalOf(request);
    const base = baseUrl(request);
    const hosted = registry.list(caller.admin ? undefined : caller.clientId);
    return { sandboxes: hosted.map((entry) => record(entry, base, caller)) };
  });

  const perSandbox = { schema: { params: sandboxParamsSchema, querystring: ownerQuerySchema } };

  app.get<{ Params: { id: string }; Querystring: { owner?: string } }>(
    "/api/sandboxes/:id",
    perSandbox,
    async (request): Promise<SandboxRecord> => {
      return record(requireAddressed(registry, request), baseUrl(request), principalOf(request));
    },
  );

  app.delete<{ Params: { id: string }; Querystring: { owner?: string } }>(
    "/api/sandboxes/:id",
    perSandbox,
    async (request): Promise<DeleteSandboxResponse> => {
      const hosted = requireAddressed(registry, request);
      await registry.destroy(hosted.owner, hosted.sandboxId);
      return { sandbox_id: hosted.sandboxId, deleted: true };
    },
  );
}
