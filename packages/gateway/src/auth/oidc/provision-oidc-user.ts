/**
 * From a validated OIDC identity to an account, by DeerFlow's provisioning rules.
 *
 * An identity already linked to an account signs into it. A new identity must
 * have a verified email (unless `requireVerifiedEmail: false`) of an allowed
 * domain, and gets a new account when `autoCreateUsers` allows. An existing
 * account that owns the same email but is not linked to this identity (a local
 * password account, or another provider's) is never linked automatically: the
 * login is refused (`ACCOUNT_EXISTS`), since linking would let whoever controls
 * the email at the provider take over that account.
 */
import { isDeerflowError, type UserRecord } from "@deerflow/runtime";
import type { OidcAccounts } from "./oidc-accounts.js";
import type { OidcIdentity } from "./oidc-identity.js";
import { OidcLoginError } from "./oidc-login-error.js";
import type { OidcProviderOptions } from "./oidc-options.js";

/** An account for a login, and whether it was just created. */
export interface ProvisionedUser {
  readonly user: UserRecord;
  readonly created: boolean;
}

function linked(user: UserRecord): ProvisionedUser {
  if (user.disabled) throw new OidcLoginError("USER_DISABLED", "The account of this identity is disabled");
  return { user, created: false };
}

function domainAllowed(email: string, allowed: readonly string[] | undefined): boolean {
  if (allowed === undefined || allowed.length === 0) return true;
  const at = email.lastIndexOf("@");
  const domain = at === -1 ? "" : email.slice(at + 1);
  return domain !== "" && allowed.some((d) => d.toLowerCase().replace(/^@/, "") === domain);
}

/**
 * Resolves `identity` to an account (see the module comment for the rules).
 *
 * @param accounts - the account store.
 * @param provider - the provider's settings (provisioning rules).
 * @param identity - what the provider vouched for.
 * @returns the account and whether it was created.
 * @throws OidcLoginError `USER_DISABLED`, `EMAIL_NOT_VERIFIED`, `EMAIL_MISSING`,
 *   `EMAIL_DOMAIN_NOT_ALLOWED`, `ACCOUNT_EXISTS`, `SIGNUP_DISABLED`.
 */
export async function provisionOidcUser(
  accounts: OidcAccounts,
  provider: OidcProviderOptions,
  identity: OidcIdentity,
): Promise<ProvisionedUser> {
  const existing = await accounts.getUserByOAuth(identity.provider, identity.subject);
  if (existing !== undefined) return linked(existing);

  if ((provider.requireVerifiedEmail ?? true) && !identity.emailVerified) {
    throw new OidcLoginError("EMAIL_NOT_VERIFIED", "The identity provider did not verify the email");
  }
  const email = identity.email.trim().toLowerCase();
  if (email === "") throw new OidcLoginError("EMAIL_MISSING", "The identity provider sent no email");
  if (!domainAllowed(email, provider.allowedEmailDomains)) {
    throw new OidcLoginError("EMAIL_DOMAIN_NOT_ALLOWED", "The email's domain is not allowed");
  }
  const owner = await accounts.getUserByEmail(email);
  if (owner !== undefined) {
    // A concurrent first login of this same identity may have created it since the lookup above.
    if (owner.oauthProvider === identity.provider && owner.oauthSubject === identity.subject) return linked(owner);
    throw new OidcLoginError("ACCOUNT_EXISTS", "An account not linked to this identity owns the email");
  }
  if (!(provider.autoCreateUsers ?? true)) {
    throw new OidcLoginError("SIGNUP_DISABLED", "Automatic account creation is disabled");
  }
  const admin = (provider.adminEmails ?? []).some((e) => e.toLowerCase() === email);
  try {
    const user = await accounts.createUser({
      email,
      passwordHash: null,
      systemRole: admin ? "admin" : "user",
      needsSetup: false,
      oauthProvider: identity.provider,
      oauthSubject: identity.subject,
    });
    return { user, created: true };
  } catch (error) {
    if (!isDeerflowError(error) || (error.code !== "EMAIL_EXISTS" && error.code !== "OAUTH_IDENTITY_EXISTS")) {
      throw error;
    }
    // A concurrent callback (double click, replayed redirect) won the insert: if it
    // created this identity's account, that is the account; else the email was taken.
    const winner = await accounts.getUserByOAuth(identity.provider, identity.subject);
    if (winner !== undefined) return linked(winner);
    throw new OidcLoginError("ACCOUNT_EXISTS", "An account not linked to this identity owns the email", {
      cause: error,
    });
  }
}
