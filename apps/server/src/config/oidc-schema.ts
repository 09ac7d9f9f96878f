/**
 * JSON Schema of `auth.oidc:` in `config.yaml` (DeerFlow's keys, §8): SSO
 * login through OpenID Connect providers. Secrets are written as `${ENV}`
 * references like every other key.
 */

type Schema = Record<string, unknown>;

const str = (extra: Schema = {}): Schema => ({ type: "string", minLength: 1, ...extra });
const bool = (): Schema => ({ type: "boolean" });
const strings = (extra: Schema = {}): Schema => ({ type: "array", items: str(), ...extra });

/** One provider under `auth.oidc.providers.<id>`. */
const PROVIDER_SCHEMA: Schema = {
  type: "object",
  additionalProperties: false,
  required: ["display_name", "issuer", "client_id"],
  properties: {
    display_name: str({ maxLength: 100 }),
    issuer: str(),
    client_id: str(),
    client_secret: str(),
    redirect_uri: str(),
    scopes: strings({ minItems: 1, uniqueItems: true }),
    token_endpoint_auth_method: { enum: ["client_secret_post", "client_secret_basic", "none"] },
    auto_create_users: bool(),
    require_verified_email: bool(),
    allowed_email_domains: strings(),
    admin_emails: strings(),
  },
};

/** `auth.oidc:`. */
export const OIDC_SCHEMA: Schema = {
  type: "object",
  additionalProperties: false,
  properties: {
    enabled: bool(),
    frontend_base_url: str(),
    timeout_seconds: { type: "number", exclusiveMinimum: 0, maximum: 120 },
    providers: {
      type: "object",
      // The id is part of the login and callback paths and of a cookie name.
      propertyNames: { pattern: "^[A-Za-z0-9_-]{1,64}$" },
      additionalProperties: PROVIDER_SCHEMA,
    },
  },
};
