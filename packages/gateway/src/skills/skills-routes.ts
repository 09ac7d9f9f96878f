/**
 * DeerFlow's skills HTTP API as a Fastify plugin (mounted under `/api`):
 * the 11 routes of `backend/app/gateway/routers/skills.py`, plus
 * `POST /skills/upload`.
 */
import multipart from "@fastify/multipart";
import type { FastifyPluginAsync } from "fastify";
import { requireAdmin } from "../auth/require-admin.js";
import { GatewayError } from "../errors.js";
import { guarded } from "../http/guarded.js";
import { registerCustomSkillRoutes } from "./custom-skill-routes.js";
import { registerInstallRoutes } from "./install-routes.js";
import {
  enabledBodySchema,
  reloadResponseSchema,
  skillFileListSchema,
  skillFileParamsSchema,
  skillListSchema,
  skillNameParamsSchema,
  skillResponseSchema,
} from "./schemas.js";
import { listSkillFiles, readSkillFile } from "./skill-files.js";
import { cleanSkillName, toSkillResponse } from "./skill-wire.js";
import type { SkillsBackend } from "./skills-backend.js";
import type { SkillsRoutesOptions } from "./skills-routes-options.js";

/** The reload route's exact answer. */
export const RELOAD_RESPONSE = Object.freeze({
  success: true,
  scope: "process",
  message: "Skill caches invalidated; subsequent runs in this Gateway process will rescan the latest skills.",
});

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

type NameParams = { skill_name: string };

async function skillDirOf(
  backend: SkillsBackend,
  userId: string,
  rawName: string,
): Promise<{ name: string; dir: string }> {
  const name = cleanSkillName(rawName);
  const { catalog } = await backend.forUser(userId);
  const skill = await catalog.get(name);
  if (skill === undefined) throw new GatewayError("NOT_FOUND", `Skill '${name}' not found`);
  return { name, dir: skill.skillDir };
}

/**
 * The skills plugin. Admin-only routes answer non-admins 403
 * `Admin privileges required to manage skills.` before the body is read.
 *
 * @example
 * ```ts
 * await app.register(skillsRoutes, { prefix: "/api", backend: createSharedSkillsBackend({ catalog }), files });
 * ```
 */
export const skillsRoutes: FastifyPluginAsync<SkillsRoutesOptions> = async (app, options) => {
  const backend = options.backend;
  const admin = requireAdmin();
  // Scoped to this plugin, for POST /skills/upload; limits are set per request.
  await app.register(multipart, { throwFileSizeLimit: false });

  app.get(
    "/skills",
    {
      schema: {
        summary: "List every skill (enabled or not), sorted by name",
        tags: ["skills"],
        response: { 200: skillListSchema },
      },
    },
    async (request) =>
      guarded("Failed to load skills.", async () => {
        const { catalog } = await backend.forUser(request.principal.userId);
        return { skills: (await catalog.list()).map(toSkillResponse) };
      }),
  );

  app.post(
    "/skills/reload",
    {
      onRequest: admin,
      schema: {
        summary: "Invalidate the skill caches and rescan (admin)",
        tags: ["skills"],
        response: { 200: reloadResponseSchema },
        "x-errors": [403],
      },
    },
    async (request) => {
      try {
        await withTimeout(backend.reload(), options.reloadTimeoutMs ?? 5000);
      } catch (err) {
        request.log.error({ err }, "skills reload failed");
        throw new GatewayError("INTERNAL", "Failed to invalidate skills cache.");
      }
      return RELOAD_RESPONSE;
    },
  );

  registerInstallRoutes(app, options, admin);
  registerCustomSkillRoutes(app, backend, admin);

  app.get<{ Params: NameParams }>(
    "/skills/:skill_name",
    {
      schema: {
        summary: "The effective skill with that name",
        tags: ["skills"],
        params: skillNameParamsSchema,
        response: { 200: skillResponseSchema },
        "x-errors": [404],
      },
    },
    async (request) =>
      guarded("Failed to get skill.", async () => {
        const name = cleanSkillName(request.params.skill_name);
        const { catalog } = await backend.forUser(request.principal.userId);
        const skill = await catalog.get(name);
        if (skill === undefined) throw new GatewayError("NOT_FOUND", `Skill '${name}' not found`);
        return toSkillResponse(skill);
      }),
  );

  app.get<{ Params: NameParams }>(
    "/skills/:skill_name/files",
    {
      schema: {
        summary: "The files of a skill's directory (sorted, at most 1,000; symlinks skipped)",
        tags: ["skills"],
        params: skillNameParamsSchema,
        response: { 200: skillFileListSchema },
        "x-errors": [404],
      },
    },
    async (request) =>
      guarded("Failed to list skill files.", async () => {
        const { dir } = await skillDirOf(backend, request.principal.userId, request.params.skill_name);
        return listSkillFiles(dir);
      }),
  );

  app.get<{ Params: NameParams & { "*": string } }>(
    "/skills/:skill_name/files/*",
    {
      schema: {
        summary: "One file of a skill's directory as UTF-8 text",
        description:
          "E.g. /api/skills/deep-research/files/SKILL.md. Files over 1 MiB answer 413, binary files (a NUL byte in the first 8 KiB) 415.",
        tags: ["skills"],
        params: skillFileParamsSchema,
        produces: ["text/plain"],
        response: { 200: { description: "The file's text", type: "string" } },
        "x-errors": [403, 404, 413, 415],
      },
    },
    async (request, reply) => {
      const text = await guarded("Failed to read skill file.", async () => {
        const { name, dir } = await skillDirOf(backend, request.principal.userId, request.params.skill_name);
        return readSkillFile(dir, request.params["*"], name);
      });
      return reply
        .header("content-type", "text/plain; charset=utf-8")
        .header("cache-control", "private, no-cache")
        .header("x-content-type-options", "nosniff")
        .send(text);
    },
  );

  app.put<{ Params: NameParams; Body: { enabled: boolean } }>(
    "/skills/:skill_name",
    {
      onRequest: admin,
      schema: {
        summary: "Enable or disable a skill (admin)",
        tags: ["skills"],
        params: skillNameParamsSchema,
        body: enabledBodySchema,
        response: { 200: skillResponseSchema },
        "x-errors": [403, 404],
      },
    },
    async (request) =>
      guarded("Failed to update skill.", async () => {
        const name = cleanSkillName(request.params.skill_name);
        const { catalog } = await backend.forUser(request.principal.userId);
        return toSkillResponse(await catalog.setEnabled(name, request.body.enabled));
      }),
  );
};
