/**
 * Routes of the custom skills: listing, raw content, edit, delete, history and rollback.
 */
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { GatewayError } from "../errors.js";
import { guarded } from "../http/guarded.js";
import { successMessageSchema } from "../schemas.js";
import {
  customSkillContentSchema,
  historyResponseSchema,
  rollbackBodySchema,
  skillListSchema,
  skillNameParamsSchema,
  updateContentBodySchema,
} from "./schemas.js";
import type { WireCustomSkill } from "../wire-types.js";
import { cleanSkillName, toSkillResponse, toWireHistoryRecord } from "./skill-wire.js";
import type { SkillsBackend, UserSkills } from "./skills-backend.js";

type NameParams = { skill_name: string };

/**
 * The one 404 text of every custom-skill route. DeerFlow has two (its read
 * routes end without a period, its edit routes with one, as the store's
 * message does); clients should not have to match both.
 */
function customNotFound(name: string): GatewayError {
  return new GatewayError("NOT_FOUND", `Custom skill '${name}' not found`);
}

/** Runs `work`, turning the store's `SKILL_NOT_FOUND` into {@link customNotFound}. */
async function orCustomNotFound<T>(name: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if ((err as { code?: unknown }).code === "SKILL_NOT_FOUND") throw customNotFound(name);
    throw err;
  }
}

async function customDetail(skills: UserSkills, name: string): Promise<WireCustomSkill> {
  const skill = await skills.catalog.get(name);
  if (skill === undefined || skill.category !== "custom") throw customNotFound(name);
  return { ...toSkillResponse(skill), content: await skills.store.read(name) };
}

/**
 * Registers the `/skills/custom...` routes.
 *
 * @param app - the skills plugin instance.
 * @param backend - the skills per user.
 * @param admin - the admin gate.
 */
export function registerCustomSkillRoutes(
  app: FastifyInstance,
  backend: SkillsBackend,
  admin: onRequestAsyncHookHandler,
): void {
  const tags = ["skills"];

  app.get(
    "/skills/custom",
    { schema: { summary: "The caller's custom skills", tags, response: { 200: skillListSchema } } },
    async (request) =>
      guarded("Failed to list custom skills.", async () => {
        const { catalog } = await backend.forUser(request.principal.userId);
        return { skills: (await catalog.list()).filter((s) => s.category === "custom").map(toSkillResponse) };
      }),
  );

  app.get<{ Params: NameParams }>(
    "/skills/custom/:skill_name",
    {
      onRequest: admin,
      schema: {
        summary: "A custom skill with its raw SKILL.md (admin)",
        tags,
        params: skillNameParamsSchema,
        response: { 200: customSkillContentSchema },
        "x-errors": [403, 404],
      },
    },
    async (request) =>
      guarded("Failed to get custom skill.", async () => {
        const name = cleanSkillName(request.params.skill_name);
        const skills = await backend.forUser(request.principal.userId);
        return orCustomNotFound(name, () => customDetail(skills, name));
      }),
  );

  app.put<{ Params: NameParams; Body: { content: string } }>(
    "/skills/custom/:skill_name",
    {
      onRequest: admin,
      schema: {
        summary: "Replace a custom skill's SKILL.md (validated and security-scanned; admin)",
        tags,
        params: skillNameParamsSchema,
        body: updateContentBodySchema,
        response: { 200: customSkillContentSchema },
        "x-errors": [400, 403, 404],
      },
    },
    async (request) =>
      guarded("Failed to update custom skill.", async () => {
        const name = cleanSkillName(request.params.skill_name);
        const skills = await backend.forUser(request.principal.userId);
        return orCustomNotFound(name, async () => {
          await skills.store.update(name, request.body.content, { author: "human" });
          skills.catalog.invalidate();
          return customDetail(skills, name);
        });
      }),
  );

  app.delete<{ Params: NameParams }>(
    "/skills/custom/:skill_name",
    {
      onRequest: admin,
      schema: {
        summary: "Delete a custom skill (its history is kept; admin)",
        tags,
        params: skillNameParamsSchema,
        response: { 200: successMessageSchema },
        "x-errors": [400, 403, 404],
      },
    },
    async (request) =>
      guarded("Failed to delete custom skill.", async () => {
        const name = cleanSkillName(request.params.skill_name);
        const skills = await backend.forUser(request.principal.userId);
        return orCustomNotFound(name, async () => {
          await skills.store.delete(name, { author: "human" });
          skills.catalog.invalidate();
          return { success: true };
        });
      }),
  );

  app.get<{ Params: NameParams }>(
    "/skills/custom/:skill_name/history",
    {
      onRequest: admin,
      schema: {
        summary: "A custom skill's change history, oldest first (admin)",
        tags,
        params: skillNameParamsSchema,
        response: { 200: historyResponseSchema },
        "x-errors": [400, 403, 404],
      },
    },
    async (request) =>
      guarded("Failed to read history.", async () => {
        const name = cleanSkillName(request.params.skill_name);
        const { store } = await backend.forUser(request.principal.userId);
        return orCustomNotFound(name, async () => ({ history: (await store.history(name)).map(toWireHistoryRecord) }));
      }),
  );

  app.post<{ Params: NameParams; Body: { history_index?: number } }>(
    "/skills/custom/:skill_name/rollback",
    {
      onRequest: admin,
      schema: {
        summary: "Restore the SKILL.md before a history entry (admin)",
        tags,
        params: skillNameParamsSchema,
        body: rollbackBodySchema,
        response: { 200: customSkillContentSchema },
        "x-errors": [400, 403, 404],
      },
    },
    async (request) =>
      guarded("Failed to roll back custom skill.", async () => {
        // DeerFlow does not strip newlines here.
        const name = request.params.skill_name;
        const skills = await backend.forUser(request.principal.userId);
        return orCustomNotFound(name, async () => {
          await skills.store.rollback(name, request.body.history_index ?? -1, { author: "human" });
          skills.catalog.invalidate();
          return customDetail(skills, name);
        });
      }),
  );
}
