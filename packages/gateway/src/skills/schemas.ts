/**
 * JSON Schemas of the skills routes (DeerFlow's request and response models).
 */
import { threadIdSchema } from "../schemas.js";

/** `SkillResponse`. */
export const skillResponseSchema = {
  type: "object",
  required: ["name", "description", "license", "category", "enabled", "editable"],
  properties: {
    name: { type: "string" },
    description: { type: "string" },
    license: { type: "string", nullable: true },
    category: { type: "string", enum: ["public", "custom", "legacy"] },
    enabled: { type: "boolean" },
    editable: { type: "boolean", description: "True only for custom skills." },
  },
} as const;

/** `SkillResponse` plus the raw SKILL.md. */
export const customSkillContentSchema = {
  ...skillResponseSchema,
  required: [...skillResponseSchema.required, "content"],
  properties: { ...skillResponseSchema.properties, content: { type: "string", description: "The raw SKILL.md." } },
} as const;

/** `{"skills": [SkillResponse]}`. */
export const skillListSchema = {
  type: "object",
  required: ["skills"],
  properties: { skills: { type: "array", items: skillResponseSchema } },
} as const;

/** Params of `/skills/:skill_name...`. */
export const skillNameParamsSchema = {
  type: "object",
  required: ["skill_name"],
  properties: { skill_name: { type: "string", minLength: 1, maxLength: 256 } },
} as const;

/** `POST /skills/install` body. */
export const installBodySchema = {
  type: "object",
  additionalProperties: false,
  required: ["thread_id", "path"],
  properties: {
    thread_id: threadIdSchema,
    path: {
      type: "string",
      minLength: 1,
      maxLength: 4096,
      description: "Virtual path of a .skill file, e.g. /mnt/user-data/outputs/x.skill.",
    },
  },
} as const;

/** Install and upload response. */
export const installResponseSchema = {
  type: "object",
  required: ["success", "skill_name", "message"],
  properties: { success: { type: "boolean" }, skill_name: { type: "string" }, message: { type: "string" } },
} as const;

/** `POST /skills/reload` response. */
export const reloadResponseSchema = {
  type: "object",
  required: ["success", "scope", "message"],
  properties: { success: { type: "boolean" }, scope: { type: "string" }, message: { type: "string" } },
} as const;

/** `PUT /skills/custom/:skill_name` body. */
export const updateContentBodySchema = {
  type: "object",
  additionalProperties: false,
  required: ["content"],
  properties: { content: { type: "string", maxLength: 10 * 1024 * 1024, description: "The full new SKILL.md." } },
} as const;

/** `POST /skills/custom/:skill_name/rollback` body. */
export const rollbackBodySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    history_index: { type: "integer", default: -1, description: "History position; negative counts from the end." },
  },
} as const;

/** `PUT /skills/:skill_name` body. */
export const enabledBodySchema = {
  type: "object",
  additionalProperties: false,
  required: ["enabled"],
  properties: { enabled: { type: "boolean" } },
} as const;

const wireFindingSchema = {
  type: "object",
  properties: {
    rule_id: { type: "string" },
    severity: { type: "string" },
    file: { type: "string", nullable: true },
    line: { type: "integer", nullable: true },
    message: { type: "string" },
    remediation: { type: "string" },
    evidence: { type: "string", nullable: true },
  },
} as const;

/** `{"history": [record]}`. */
export const historyResponseSchema = {
  type: "object",
  required: ["history"],
  properties: {
    history: {
      type: "array",
      items: {
        type: "object",
        required: ["ts", "action", "author", "thread_id", "file_path", "prev_content", "new_content", "scanner"],
        properties: {
          ts: { type: "string" },
          action: { type: "string" },
          author: { type: "string", enum: ["agent", "human"] },
          thread_id: { type: "string", nullable: true },
          file_path: { type: "string" },
          prev_content: { type: "string", nullable: true },
          new_content: { type: "string", nullable: true },
          scanner: {
            type: "object",
            properties: {
              decision: { type: "string" },
              reason: { type: "string" },
              static_findings: { type: "array", items: wireFindingSchema },
            },
          },
          rollback_from_ts: { type: "string" },
        },
      },
    },
  },
} as const;

/** Documentation of the `.skill` upload body. */
export const skillUploadDoc = {
  type: "object",
  required: ["file"],
  properties: { file: { type: "string", format: "binary", description: "One .skill archive." } },
} as const;

/** `GET /skills/:skill_name/files` response. */
export const skillFileListSchema = {
  type: "object",
  required: ["files", "truncated"],
  properties: {
    files: {
      type: "array",
      maxItems: 1000,
      items: {
        type: "object",
        required: ["path", "size"],
        properties: {
          path: { type: "string", description: "POSIX path relative to the skill directory, e.g. scripts/x.py." },
          size: { type: "integer", description: "Bytes." },
        },
      },
    },
    truncated: {
      type: "boolean",
      description: "True when more than 1,000 files exist (the first 1,000 by path are listed).",
    },
  },
} as const;

/** Params of `GET /skills/:skill_name/files/*`. */
export const skillFileParamsSchema = {
  type: "object",
  required: ["skill_name", "*"],
  properties: {
    skill_name: skillNameParamsSchema.properties.skill_name,
    "*": {
      type: "string",
      maxLength: 4096,
      description: "Path relative to the skill directory, e.g. SKILL.md or scripts/x.py.",
    },
  },
} as const;
