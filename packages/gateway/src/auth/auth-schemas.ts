/**
 * JSON Schemas of the `/api/v1/auth` routes (DeerFlow's request and response
 * models, plus our API-key and user-management additions).
 */
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password-policy.js";

const email = { type: "string", format: "email", minLength: 3, maxLength: 320 } as const;
const newPassword = { type: "string", minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH } as const;
const anyPassword = { type: "string", maxLength: MAX_PASSWORD_LENGTH } as const;
const role = { type: "string", enum: ["admin", "user"] } as const;

/** `POST /login/local` (form-urlencoded or JSON; the OAuth2 password form's extra fields are accepted and ignored). */
export const loginBodySchema = {
  type: "object",
  required: ["username", "password"],
  additionalProperties: false,
  properties: {
    username: { type: "string", minLength: 1, maxLength: 320, description: "The email." },
    password: anyPassword,
    remember_me: { type: "boolean", default: true },
    grant_type: { type: "string" },
    scope: { type: "string" },
    client_id: { type: "string" },
    client_secret: { type: "string" },
  },
} as const;

/** `{expires_in, needs_setup}`. */
export const loginResponseSchema = {
  type: "object",
  required: ["expires_in", "needs_setup"],
  properties: {
    expires_in: { type: "integer", description: "Session lifetime in seconds." },
    needs_setup: { type: "boolean" },
  },
} as const;

/** `POST /register` and `POST /initialize`. */
export const credentialsBodySchema = {
  type: "object",
  required: ["email", "password"],
  additionalProperties: false,
  properties: { email, password: newPassword, remember_me: { type: "boolean", default: true } },
} as const;

/** DeerFlow's `UserResponse` (`needs_setup` on `/me`; our user list adds `disabled` and `created_at`). */
export const userResponseSchema = {
  type: "object",
  required: ["id", "email", "system_role", "oauth_provider"],
  properties: {
    id: { type: "string" },
    email: { type: "string" },
    system_role: role,
    oauth_provider: { type: "string", nullable: true },
    needs_setup: { type: "boolean" },
    disabled: { type: "boolean" },
    created_at: { type: "string" },
  },
} as const;

/** `{message}`. */
export const messageResponseSchema = {
  type: "object",
  required: ["message"],
  properties: { message: { type: "string" } },
} as const;

/** `POST /change-password`. */
export const changePasswordBodySchema = {
  type: "object",
  required: ["current_password", "new_password"],
  additionalProperties: false,
  properties: {
    current_password: anyPassword,
    new_password: newPassword,
    new_email: email,
    remember_me: { type: "boolean" },
  },
} as const;

/** `GET /setup-status`. */
export const setupStatusSchema = {
  type: "object",
  required: ["needs_setup", "registration_enabled"],
  properties: { needs_setup: { type: "boolean" }, registration_enabled: { type: "boolean" } },
} as const;

/** `GET /providers`. */
export const providersSchema = {
  type: "object",
  required: ["local", "oidc"],
  properties: {
    local: { type: "boolean" },
    oidc: {
      type: "array",
      items: {
        type: "object",
        required: ["id", "display_name"],
        properties: { id: { type: "string" }, display_name: { type: "string" } },
      },
    },
  },
} as const;

/** One API key as listed (never the key itself). */
export const apiKeySchema = {
  type: "object",
  required: ["id", "name", "prefix", "created_at", "expires_at", "last_used_at"],
  properties: {
    id: { type: "string" },
    name: { type: "string" },
    prefix: { type: "string", description: "The key's first characters, to tell keys apart." },
    created_at: { type: "string" },
    expires_at: { type: "string", nullable: true },
    last_used_at: { type: "string", nullable: true },
  },
} as const;

/** `POST /api-keys`. */
export const createApiKeyBodySchema = {
  type: "object",
  required: ["name"],
  additionalProperties: false,
  properties: {
    name: { type: "string", minLength: 1, maxLength: 100 },
    expires_in_days: { type: "integer", minimum: 1, maximum: 3650 },
  },
} as const;

/** The created key: the listing fields plus `key`, shown this once. */
export const createdApiKeySchema = {
  ...apiKeySchema,
  required: [...apiKeySchema.required, "key"],
  properties: { ...apiKeySchema.properties, key: { type: "string", description: "The secret; shown only now." } },
} as const;

/** Params naming one key or user. */
export const idParamsSchema = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string", minLength: 1, maxLength: 128 } },
} as const;

/** `GET /users` query. */
export const listUsersQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    limit: { type: "integer", minimum: 1, maximum: 1000, default: 100 },
    offset: { type: "integer", minimum: 0, default: 0 },
  },
} as const;

/** `POST /users`. */
export const createUserBodySchema = {
  type: "object",
  required: ["email", "password"],
  additionalProperties: false,
  properties: { email, password: newPassword, system_role: { ...role, default: "user" } },
} as const;

/** `PATCH /users/:id`. */
export const patchUserBodySchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: { system_role: role, disabled: { type: "boolean" } },
} as const;
