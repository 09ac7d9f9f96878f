/**
 * `/api/sandboxes`: the provisioner API of DeerFlow's remote sandbox backend
 * (create, status, delete, list), served for the sandboxes this process hosts.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { sandboxPath, type CreateSandboxRequest, type DeleteSandboxResponse, type ListSandboxesResponse, type SandboxRecord } from "../wire/types.js";
import { createSandboxSchema, sandboxParamsSchema } from "./schemas.js";
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

function record(hosted: HostedSandbox, base: string): SandboxRecord {
  return {
    sandbox_id: hosted.sandboxId,
    sandbox_url: `${base}${sandboxPath(hosted.sandboxId)}`,
    status: "Running",
    thread_id: hosted.threadId,
    user_id: hosted.userId,
  };
}

/**
 * Registers the provisioner routes.
 *
 * @param app - The Fastify instance.
 * @param registry - The hosted sandboxes.
 * @param baseUrl - Builds the base of `sandbox_url`.
 */
export function registerProvisionerRoutes(app: FastifyInstance, registry: SandboxRegistry, baseUrl: BaseUrlResolver): void {
  app.post<{ Body: CreateSandboxRequest }>("/api/sandboxes", { schema: { body: createSandboxSchema } }, async (request): Promise<SandboxRecord> => {
    const { sandbox_id, thread_id, user_id } = request.body;
    const hosted = await registry.acquire(sandbox_id, thread_id, user_id ?? "default");
    return record(hosted, baseUrl(request));
  });

  app.get("/api/sandboxes", async (request): Promise<ListSandboxesResponse> => {
    const base = baseUrl(request);
    return { sandboxes: registry.list().map((hosted) => record(hosted, base)) };
  });

  app.get<{ Params: { id: string } }>("/api/sandboxes/:id", { schema: { params: sandboxParamsSchema } }, async (request): Promise<SandboxRecord> => {
    return record(registry.require(request.params.id), baseUrl(request));
  });

  app.delete<{ Params: { id: string } }>("/api/sandboxes/:id", { schema: { params: sandboxParamsSchema } }, async (request): Promise<DeleteSandboxResponse> => {
    registry.require(request.params.id);
    await registry.destroy(request.params.id);
    return { sandbox_id: request.params.id, deleted: true };
  });
}
