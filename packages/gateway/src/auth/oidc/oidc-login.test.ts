import { describe, expect, it } from "vitest";
import { createOidcLogin, listOidcProviders } from "./oidc-login.js";
import type { OidcProviderOptions, OidcSettings } from "./oidc-options.js";

const corp: OidcProviderOptions = {
  displayName: "Corp",
  issuer: "https://idp.example.com",
  clientId: "df",
  clientSecret: "s",
};
const secret = "an-oidc-test-secret-of-at-least-32-bytes!";

describe("createOidcLogin", () => {
  it("lists enabled providers without secrets or endpoints", () => {
    const settings: OidcSettings = { enabled: true, providers: { corp, other: { ...corp, displayName: "Other" } } };
    expect(createOidcLogin({ settings, secret }).providers()).toEqual([
      { id: "corp", display_name: "Corp" },
      { id: "other", display_name: "Other" },
    ]);
    expect(listOidcProviders({ ...settings, enabled: false })).toEqual([]);
    expect(listOidcProviders(undefined)).toEqual([]);
  });

  it.each([
    ["a provider id unfit for a path", { providers: { "a/b": corp } }],
    ["a provider id with a dot", { providers: { "a.b": corp } }],
    ["a frontend_base_url that is not http(s)", { providers: { corp }, frontendBaseUrl: "javascript:alert(1)" }],
    ["a frontend_base_url with a query", { providers: { corp }, frontendBaseUrl: "https://x.example/?next=//evil" }],
    ["a plain-http issuer off loopback", { providers: { corp: { ...corp, issuer: "http://idp.example.com" } } }],
  ])("refuses %s at startup (CONFIG_INVALID)", (_label, extra) => {
    expect(() => createOidcLogin({ settings: { enabled: true, ...extra } as OidcSettings, secret })).toThrow(
      expect.objectContaining({ code: "CONFIG_INVALID" }),
    );
  });

  it("checks nothing while disabled (a half-written provider does not stop the server)", () => {
    const settings = { enabled: false, providers: { "a/b": { ...corp, issuer: "nope" } } };
    expect(() => createOidcLogin({ settings, secret })).not.toThrow();
  });
});
