import { MemoryAccountStore } from "@deerflow/runtime";
import { describe, expect, it } from "vitest";
import type { OidcIdentity } from "./oidc-identity.js";
import { OidcLoginError } from "./oidc-login-error.js";
import type { OidcProviderOptions } from "./oidc-options.js";
import { provisionOidcUser } from "./provision-oidc-user.js";

const provider: OidcProviderOptions = { displayName: "Corp", issuer: "https://idp.example", clientId: "c" };
const identity: OidcIdentity = { provider: "corp", subject: "sub-1", email: "Ada@Example.com", emailVerified: true };

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(OidcLoginError.isInstance(error)).toBe(true);
  return (error as OidcLoginError).code;
}

describe("provisionOidcUser", () => {
  it("creates an OIDC-only user (lowercase email, no password) and reuses it by subject", async () => {
    const store = new MemoryAccountStore();
    const first = await provisionOidcUser(store, provider, identity);
    expect(first.created).toBe(true);
    expect(first.user).toMatchObject({
      email: "ada@example.com",
      passwordHash: null,
      systemRole: "user",
      needsSetup: false,
      oauthProvider: "corp",
      oauthSubject: "sub-1",
    });
    // The same subject with a changed email still signs into the same account.
    const again = await provisionOidcUser(store, provider, { ...identity, email: "new@example.com" });
    expect(again).toEqual({ user: first.user, created: false });
    expect(await store.countUsers()).toBe(1);
  });

  it("gives admin to adminEmails", async () => {
    const store = new MemoryAccountStore();
    const { user } = await provisionOidcUser(store, { ...provider, adminEmails: ["ADA@example.com"] }, identity);
    expect(user.systemRole).toBe("admin");
  });

  it("refuses an unverified email unless requireVerifiedEmail is false", async () => {
    const store = new MemoryAccountStore();
    expect(await refusal(provisionOidcUser(store, provider, { ...identity, emailVerified: false }))).toBe(
      "EMAIL_NOT_VERIFIED",
    );
    const lax = { ...provider, requireVerifiedEmail: false };
    expect((await provisionOidcUser(store, lax, { ...identity, emailVerified: false })).created).toBe(true);
  });

  it("refuses a missing email", async () => {
    expect(await refusal(provisionOidcUser(new MemoryAccountStore(), provider, { ...identity, email: " " }))).toBe(
      "EMAIL_MISSING",
    );
  });

  it("enforces allowedEmailDomains (case-insensitive, leading @ ignored, no suffix match)", async () => {
    const store = new MemoryAccountStore();
    const limited = { ...provider, allowedEmailDomains: ["@EXAMPLE.com"] };
    expect((await provisionOidcUser(store, limited, identity)).created).toBe(true);
    for (const email of ["eve@evil.com", "eve@sub.example.com", "eve@evilexample.com", "example.com"]) {
      expect(await refusal(provisionOidcUser(store, limited, { ...identity, subject: email, email }))).toBe(
        "EMAIL_DOMAIN_NOT_ALLOWED",
      );
    }
  });

  it("never links an existing local account with the same email", async () => {
    const store = new MemoryAccountStore();
    await store.createUser({ email: "ada@example.com", passwordHash: "$dfv2$x", systemRole: "admin" });
    expect(await refusal(provisionOidcUser(store, provider, identity))).toBe("ACCOUNT_EXISTS");
    expect((await store.getUserByEmail("ada@example.com"))?.oauthSubject).toBeNull();
  });

  it("refuses an unknown identity when autoCreateUsers is false, but signs a linked one in", async () => {
    const store = new MemoryAccountStore();
    await provisionOidcUser(store, provider, identity);
    const closed = { ...provider, autoCreateUsers: false };
    expect((await provisionOidcUser(store, closed, identity)).created).toBe(false);
    expect(
      await refusal(provisionOidcUser(store, closed, { ...identity, subject: "sub-2", email: "bob@example.com" })),
    ).toBe("SIGNUP_DISABLED");
  });

  it("refuses a disabled account", async () => {
    const store = new MemoryAccountStore();
    const { user } = await provisionOidcUser(store, provider, identity);
    await store.updateUser(user.userId, { disabled: true });
    expect(await refusal(provisionOidcUser(store, provider, identity))).toBe("USER_DISABLED");
  });

  it("a concurrent login that created this identity's account between the two lookups is not a conflict", async () => {
    const store = new MemoryAccountStore();
    const { user } = await provisionOidcUser(store, provider, identity);
    // The interleaving: this call's lookup by identity ran before the other call's insert.
    let first = true;
    const racing = Object.assign(Object.create(store) as MemoryAccountStore, {
      getUserByOAuth: async (p: string, s: string) => {
        if (first) {
          first = false;
          return undefined;
        }
        return store.getUserByOAuth(p, s);
      },
    });
    expect(await provisionOidcUser(racing, provider, identity)).toEqual({ user, created: false });
    // Another identity with that email is still refused.
    expect(await refusal(provisionOidcUser(racing, provider, { ...identity, subject: "sub-9" }))).toBe(
      "ACCOUNT_EXISTS",
    );
  });

  it("two concurrent first logins of one identity resolve to one account", async () => {
    const store = new MemoryAccountStore();
    const results = await Promise.all(Array.from({ length: 8 }, () => provisionOidcUser(store, provider, identity)));
    expect(new Set(results.map((r) => r.user.userId)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await store.countUsers()).toBe(1);
  });
});
