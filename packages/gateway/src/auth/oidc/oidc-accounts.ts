/**
 * The part of an account store OIDC login needs (any `AccountStore` of
 * `@deerflow/runtime` is one).
 */
import type { AccountStore } from "@deerflow/runtime";

/** Lookup by OIDC identity and by email, and user creation. */
export type OidcAccounts = Pick<AccountStore, "getUserByOAuth" | "getUserByEmail" | "createUser">;
