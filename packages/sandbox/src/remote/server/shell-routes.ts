/**
 * `/sandboxes/:id/v1/sandbox` (readiness) and `/sandboxes/:id/v1/shell/exec`.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { WORKSPACE_PATH } from "../../limits.js";
import type { ExecuteOptions, ExecuteResult } from "../../sandbox.js";
import type { Envelope, SandboxInfoData, ShellExecData, ShellExecRequest } from "../wire/types.js";
import { sandboxParamsSchema, shellExecSchema } from "./schemas.js";
import { principalOf } from "./request-principal.js";
import type { SandboxRegistry } from "./sandbox-registry.js";

/** Path prefix of the per-sandbox routes. */
export const SANDBOX_ROUTE_PREFIX = "/sandboxes/:id";

/**
 * The all-in-one `output` field: stdout, then stderr (on its own line when
 * stdout does not end with one). The streams are captured apart, so their
 * interleaving is not kept.
 *
 * @param result - What the command produced.
 * @returns The combined text.
 */
function combineOutput(result: Pick<ExecuteResult, "stdout" | "stderr">): string {
  if (result.stderr === "") return result.stdout;
  if (result.stdout === "" || result.stdout.endsWith("\n")) return result.stdout + result.stderr;
  return `${result.stdout}\n${result.stderr}`;
}

/**
 * Converts an `ExecuteResult` to its wire shape.
 *
 * @param result - The sandbox's result.
 * @returns The `data` of the exec response.
 */
function toShellExecData(result: ExecuteResult): ShellExecData {
  return {
    status: result.timedOut ? "hard_timeout" : "completed",
    output: combineOutput(result),
    stdout: result.stdout,
    stderr: result.stderr,
    exit_code: result.exitCode,
    signal: result.signal,
    timed_out: result.timedOut,
    truncated: result.truncated,
  };
}

/**
 * An `AbortSignal` that fires when the client goes away before the answer is
 * sent. The response's `close` event is used, not the request's: since Node 16
 * the request emits `close` once its body is read, while the response's fires
 * on a dropped connection (and after a completed answer, which is filtered out).
 *
 * @param reply - The reply.
 * @returns The signal and a function detaching the listener.
 */
function disconnectSignal(reply: FastifyReply): { readonly controller: AbortController; readonly dispose: () => void } {
  const controller = new AbortController();
  const onClose = (): void => {
    if (!reply.raw.writableFinished) controller.abort();
  };
  reply.raw.once("close", onClose);
  // The client may already be gone (it hung up while its body was being read).
  if (reply.raw.socket?.destroyed === true) controller.abort();
  return { controller, dispose: () => reply.raw.off("close", onClose) };
}

function executeOptions(body: ShellExecRequest, signal: AbortSignal): ExecuteOptions {
  const timeoutMs =
    body.timeout_ms ?? (body.no_change_timeout === undefined ? undefined : Math.ceil(body.no_change_timeout * 1000));
  return {
    signal,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(body.cwd === undefined ? {} : { cwd: body.cwd }),
    ...(body.env === undefined ? {} : { env: body.env }),
  };
}

/**
 * Registers the readiness and shell routes.
 *
 * @param app - The Fastify instance.
 * @param registry - The hosted sandboxes.
 */
export function registerShellRoutes(app: FastifyInstance, registry: SandboxRegistry): void {
  app.get<{ Params: { id: string } }>(
    `${SANDBOX_ROUTE_PREFIX}/v1/sandbox`,
    { schema: { params: sandboxParamsSchema } },
    async (request): Promise<Envelope<SandboxInfoData>> => {
      const hosted = registry.require(principalOf(request).clientId, request.params.id);
      return { success: true, data: { sandbox_id: hosted.sandboxId, home_dir: WORKSPACE_PATH, status: "Running" } };
    },
  );

  app.post<{ Params: { id: string }; Body: ShellExecRequest }>(
    `${SANDBOX_ROUTE_PREFIX}/v1/shell/exec`,
    { schema: { params: sandboxParamsSchema, body: shellExecSchema } },
    async (request, reply): Promise<Envelope<ShellExecData>> => {
      const hosted = registry.require(principalOf(request).clientId, request.params.id);
      const { controller, dispose } = disconnectSignal(reply);
      const untrack = registry.track(hosted, controller);
      try {
        const result = await hosted.sandbox.execute(
          request.body.command,
          executeOptions(request.body, controller.signal),
        );
        return { success: true, data: toShellExecData(result) };
      } finally {
        untrack();
        dispose();
      }
    },
  );
}
