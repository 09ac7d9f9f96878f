/**
 * JSON Schema of `auth:` in `config.yaml`: user accounts (DeerFlow's keys,
 * §8). `oidc` is described by its own schema (`auth.oidc`).
 */

type Schema = Record<string, unknown>;

/**
 * `auth:`.
 *
 * @param oidc - the schema of `auth.oidc`.
 */
export function authSchema(oidc: Schema): Schema {
  return {
    type: "object",
    additionalProperties: false,
    properties: {
      enabled: { type: "boolean" },
      token_expiry_days: { type: "integer", minimum: 1, maximum: 30 },
      cookie_secure: { type: "boolean" },
      allowed_origins: { type: "array", items: { type: "string", minLength: 1 } },
      local: {
        type: "object",
        additionalProperties: false,
        properties: { allow_registration: { type: "boolean" } },
      },
      oidc,
    },
  };
}
