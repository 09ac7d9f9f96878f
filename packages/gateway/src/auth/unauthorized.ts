/**
 * The 401 texts of the authentication hook.
 */

/** The 401 detail of a missing or unknown API key (and of every 401 without accounts). */
export const UNAUTHORIZED_MESSAGE = "Missing or invalid API key.";

/** DeerFlow's 401 message when accounts are on and the request carries no credentials. */
export const NOT_AUTHENTICATED_MESSAGE = "Authentication required";
