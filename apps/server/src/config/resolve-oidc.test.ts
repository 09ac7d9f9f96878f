import { describe, expect, it } from "vitest";
import { parseConfigText } from "./load-config.js";
import { resolveOidc } from "./resolve-oidc.js";

function resolve(auth: unknown) {
  const problems: string[] = [];
  const settings = resolveOidc({ auth }, (path, message) => problems.push(`${path}: ${message}`));
  return { settings, problems };
}

const corp = { display_name: "Corp", issuer: "https://idp.example.com/realms/x", client_id: "df", client_secret: "s" };

describe("auth.oidc config", () => {
  it("is absent without auth.oidc", () => {
    expect(resolve({ enabled: true })).toEqual({ settings: undefined, problems: [] });
  });

  it("maps every key to the gateway's settings (defaults left to the gateway)", () => {
    const { settings, problems } = resolve({
      enabled: true,
      oidc: {
        enabled: true,
        frontend_base_url: "https://console.example.com",
        timeout_seconds: 5,
        providers: {
          corp: {
            ...corp,
            redirect_uri: "https://df.example.com/api/v1/auth/callback/corp",
            scopes: ["openid", "email"],
            token_endpoint_auth_method: "client_secret_basic",
            auto_create_users: false,
            require_verified_email: false,
            allowed_email_domains: ["example.com"],
            admin_emails: ["boss@example.com"],
          },
          local_dev: {
            display_name: "Dev",
            issuer: "http://127.0.0.1:8080",
            client_id: "c",
            token_endpoint_auth_method: "none",
          },
        },
      },
    });
    expect(problems).toEqual([]);
    expect(settings).toEqual({
      enabled: true,
      frontendBaseUrl: "https://console.example.com",
      timeoutSeconds: 5,
      providers: {
        corp: {
          displayName: "Corp",
          issuer: "https://idp.example.com/realms/x",
          clientId: "df",
          clientSecret: "s",
          redirectUri: "https://df.example.com/api/v1/auth/callback/corp",
          scopes: ["openid", "email"],
          tokenEndpointAuthMethod: "client_secret_basic",
          autoCreateUsers: false,
          requireVerifiedEmail: false,
          allowedEmailDomains: ["example.com"],
          adminEmails: ["boss@example.com"],
        },
        local_dev: {
          displayName: "Dev",
          issuer: "http://127.0.0.1:8080",
          clientId: "c",
          tokenEndpointAuthMethod: "none",
        },
      },
    });
  });

  it("defaults enabled to false", () => {
    expect(resolve({ oidc: { providers: { corp } } }).settings?.enabled).toBe(false);
  });

  it.each([
    [{ enabled: false, oidc: { enabled: true, providers: { corp } } }, "auth.oidc.enabled: SSO login needs accounts"],
    [{ enabled: true, oidc: { enabled: true } }, "auth.oidc.providers: name at least one provider"],
    [
      { enabled: true, oidc: { providers: { corp: { ...corp, issuer: "http://idp.example.com" } } } },
      "auth.oidc.providers.corp.issuer: must be https",
    ],
    [
      { enabled: true, oidc: { providers: { corp: { ...corp, issuer: "idp" } } } },
      "auth.oidc.providers.corp.issuer: must be an https URL",
    ],
    [
      { enabled: true, oidc: { providers: { corp: { ...corp, client_secret: undefined } } } },
      "auth.oidc.providers.corp.client_secret: is required",
    ],
    [
      { enabled: true, oidc: { providers: { corp: { ...corp, scopes: ["email"] } } } },
      "auth.oidc.providers.corp.scopes: must include openid",
    ],
    [
      { enabled: true, oidc: { providers: { corp: { ...corp, redirect_uri: "javascript:x" } } } },
      "auth.oidc.providers.corp.redirect_uri",
    ],
    [
      { enabled: true, oidc: { frontend_base_url: "https://x.example/?next=//evil", providers: { corp } } },
      "auth.oidc.frontend_base_url",
    ],
  ])("reports %j", (auth, message) => {
    expect(resolve(auth).problems.join("\n")).toContain(message);
  });
});

describe("auth.oidc in config.yaml", () => {
  const yaml = (provider: string) => `auth:\n  enabled: true\n  oidc:\n    enabled: true\n    providers:\n${provider}`;
  const corpYaml =
    "      corp:\n        display_name: Corp\n        issuer: https://idp.example.com\n        client_id: df\n";

  it("reads the client secret from the environment", () => {
    const { config } = parseConfigText(yaml(`${corpYaml}        client_secret: \${OIDC_SECRET}\n`), {
      env: { OIDC_SECRET: "from-env" },
    });
    expect(config.auth?.oidc?.providers["corp"]?.clientSecret).toBe("from-env");
    expect(() => parseConfigText(yaml(`${corpYaml}        client_secret: \${OIDC_SECRET}\n`))).toThrow(/OIDC_SECRET/);
  });

  it("refuses unknown keys, a bad auth method and a provider id unfit for a path", () => {
    expect(() => parseConfigText(yaml(`${corpYaml}        client_secret: s\n        jwks: x\n`))).toThrow(
      /auth\.oidc\.providers\.corp/,
    );
    expect(() =>
      parseConfigText(
        yaml(`${corpYaml}        client_secret: s\n        token_endpoint_auth_method: private_key_jwt\n`),
      ),
    ).toThrow(/token_endpoint_auth_method/);
    expect(() => parseConfigText(yaml(corpYaml.replace("corp:", '"a/b":') + "        client_secret: s\n"))).toThrow(
      /auth\.oidc\.providers/,
    );
  });

  it("names the key of a problem found by the resolver", () => {
    expect(() => parseConfigText(yaml(corpYaml))).toThrow(/auth\.oidc\.providers\.corp\.client_secret/);
  });
});
