/**
 * The `auth:` section of an e2e `config.yaml` with SSO through one OpenID
 * provider (`keycloak`, shown as "Company SSO") played by the gateway's fake
 * issuer; the client secret comes from the environment, as deployments do.
 */
import type { FakeOidcIssuer } from "@deerflow/gateway/testing";
import { embeddedEnv } from "./server-harness.js";

/** The `auth:` YAML (accounts on, the provider allowing `example.com` emails). */
export function oidcAuthYaml(idp: FakeOidcIssuer): string {
  return `auth:
  enabled: true
  oidc:
    enabled: true
    providers:
      keycloak:
        display_name: Company SSO
        issuer: ${idp.issuer}
        client_id: ${idp.clientId}
        client_secret: \${OIDC_CLIENT_SECRET}
        allowed_email_domains: [example.com]
`;
}

/** The server's environment holding the provider's client secret. */
export function oidcServerEnv(idp: FakeOidcIssuer): NodeJS.ProcessEnv {
  return embeddedEnv({ OIDC_CLIENT_SECRET: idp.clientSecret });
}
