/**
 * Which permission each thread and run route needs — DeerFlow's route
 * permissions (`app/gateway/authz.py`): `threads:read|write|delete`,
 * `runs:create|read|cancel`. One table, keyed by method and route pattern, so
 * the route modules stay unaware of authorization and a test can check that
 * every registered `/api/threads...` and `/api/runs...` route is in it.
 *
 * Where DeerFlow leaves a route undecorated (creating and searching threads,
 * stateless runs) we still name a permission: `threads:write` to create,
 * `threads:read` to search or count, `runs:create` for a stateless run. Deleting
 * a run record (LangGraph's `DELETE .../runs/:run_id`, not in DeerFlow) needs
 * `runs:cancel`, the right to end someone's run.
 */

/** DeerFlow's permission names. */
export const Permissions = {
  THREADS_READ: "threads:read",
  THREADS_WRITE: "threads:write",
  THREADS_DELETE: "threads:delete",
  RUNS_CREATE: "runs:create",
  RUNS_READ: "runs:read",
  RUNS_CANCEL: "runs:cancel",
} as const;

/** One of {@link Permissions}. */
export type RoutePermission = (typeof Permissions)[keyof typeof Permissions];

/** Every permission, in DeerFlow's order. */
export const ALL_PERMISSIONS: readonly RoutePermission[] = Object.values(Permissions);

const { THREADS_READ, THREADS_WRITE, THREADS_DELETE, RUNS_CREATE, RUNS_READ, RUNS_CANCEL } = Permissions;
const T = "/api/threads/:thread_id";

/** `"<METHOD> <route pattern>"` → permission (`HEAD` is looked up as `GET`). */
export const ROUTE_PERMISSIONS: ReadonlyMap<string, RoutePermission> = new Map<string, RoutePermission>([
  // Threads (LangGraph API).
  ["POST /api/threads", THREADS_WRITE],
  ["POST /api/threads/search", THREADS_READ],
  ["POST /api/threads/count", THREADS_READ],
  [`GET ${T}`, THREADS_READ],
  [`PATCH ${T}`, THREADS_WRITE],
  [`DELETE ${T}`, THREADS_DELETE],
  [`GET ${T}/state`, THREADS_READ],
  [`GET ${T}/state/:checkpoint_id`, THREADS_READ],
  [`POST ${T}/state/checkpoint`, THREADS_READ],
  [`POST ${T}/state`, THREADS_WRITE],
  [`GET ${T}/history`, THREADS_READ],
  [`POST ${T}/history`, THREADS_READ],
  [`GET ${T}/token-usage`, THREADS_READ],
  // Thread files (DeerFlow's uploads and artifacts routers).
  [`POST ${T}/uploads`, THREADS_WRITE],
  [`GET ${T}/uploads/list`, THREADS_READ],
  [`GET ${T}/uploads/limits`, THREADS_READ],
  [`DELETE ${T}/uploads/:filename`, THREADS_DELETE],
  [`GET ${T}/artifacts/*`, THREADS_READ],
  [`GET ${T}/files`, THREADS_READ],
  // Runs of a thread.
  [`POST ${T}/runs`, RUNS_CREATE],
  [`POST ${T}/runs/stream`, RUNS_CREATE],
  [`POST ${T}/runs/wait`, RUNS_CREATE],
  [`GET ${T}/runs`, RUNS_READ],
  [`GET ${T}/runs/:run_id`, RUNS_READ],
  [`GET ${T}/runs/:run_id/join`, RUNS_READ],
  [`GET ${T}/runs/:run_id/stream`, RUNS_READ],
  [`POST ${T}/runs/:run_id/cancel`, RUNS_CANCEL],
  [`DELETE ${T}/runs/:run_id`, RUNS_CANCEL],
  // Stateless runs.
  ["POST /api/runs", RUNS_CREATE],
  ["POST /api/runs/stream", RUNS_CREATE],
  ["POST /api/runs/wait", RUNS_CREATE],
  ["GET /api/runs/:run_id/stream", RUNS_READ],
]);

/** Route families whose every route must have a permission (a new one without fails CI and is refused). */
export const PERMISSION_SCOPED_PREFIXES: readonly string[] = ["/api/threads", "/api/runs"];

/**
 * Whether a route pattern belongs to the families {@link ROUTE_PERMISSIONS} must cover.
 *
 * @param url - a Fastify route pattern, e.g. `/api/threads/:thread_id`
 */
export function isPermissionScoped(url: string): boolean {
  return PERMISSION_SCOPED_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`));
}

/**
 * The permission a route needs.
 *
 * @param method - the HTTP method
 * @param url - the route pattern (`request.routeOptions.url`), not the request path
 * @returns the permission, or `undefined` for routes outside the table
 */
export function routePermissionOf(method: string, url: string): RoutePermission | undefined {
  const m = method.toUpperCase();
  return ROUTE_PERMISSIONS.get(`${m === "HEAD" ? "GET" : m} ${url}`);
}
