/**
 * The identity a provider vouched for, after the id_token was validated.
 */

/** A validated OIDC identity. */
export interface OidcIdentity {
  /** Provider id (config key). */
  readonly provider: string;
  /** The id_token's `sub`: the stable id of the person at the provider. */
  readonly subject: string;
  /** `email` claim (id_token, else userinfo), or `""` when the provider sent none. */
  readonly email: string;
  /** Whether the provider says it verified that email (`email_verified === true`). */
  readonly emailVerified: boolean;
  /** `name` claim, when sent. */
  readonly name?: string;
}
