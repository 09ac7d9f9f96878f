/**
 * DeerFlow's local account routes under `/api/v1/auth`: login, logout,
 * registration, the first admin, password change, `me`, setup status and
 * the provider list.
 */
import { isDeerflowError } from "@deerflow/kernel";
import type { UserRecord } from "@deerflow/runtime";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { GatewayError } from "../errors.js";
import type { AccountsRuntime } from "./accounts-runtime.js";
import { toWireUser } from "./account-wire.js";
import { anonymousRoute } from "./anonymous-route.js";
import { CSRF_COOKIE, SESSION_PERSISTENT_COOKIE, clearAuthCookies, requestCookies } from "./auth-cookies.js";
import { authError } from "./auth-error-detail.js";
import {
  changePasswordBodySchema,
  credentialsBodySchema,
  loginBodySchema,
  loginResponseSchema,
  messageResponseSchema,
  providersSchema,
  setupStatusSchema,
  userResponseSchema,
} from "./auth-schemas.js";
import { setCsrfCookie } from "./csrf-token.js";
import { checkNewPassword } from "./new-password.js";
import { requireAccount } from "./require-account.js";
import { isSecureRequest } from "./session-settings.js";

/** DeerFlow's 429 text. */
export const TOO_MANY_LOGINS_MESSAGE = "Too many login attempts. Try again later.";

interface LoginBody {
  username: string;
  password: string;
  remember_me: boolean;
}
interface CredentialsBody {
  email: string;
  password: string;
  remember_me: boolean;
}
interface ChangePasswordBody {
  current_password: string;
  new_password: string;
  new_email?: string;
  remember_me?: boolean;
}

function codeOf(err: unknown): string | undefined {
  return isDeerflowError(err) ? err.code : undefined;
}

/** The lockout key of a client: its address (`request.ip`; forwarded ones only with `trustProxy`). */
function loginKey(request: FastifyRequest): string {
  return `ip:${request.ip}`;
}

function userResponse(user: UserRecord): Record<string, unknown> {
  const { id, email, system_role, oauth_provider } = toWireUser(user);
  return { id, email, system_role, oauth_provider };
}

/**
 * @param app - the `/api/v1/auth` context.
 * @param accounts - the accounts' parts.
 */
export function registerLocalAuthRoutes(app: FastifyInstance, accounts: AccountsRuntime): void {
  const { store, hasher, issuer, settings } = accounts;
  const open = anonymousRoute();

  async function verifyLogin(request: FastifyRequest, body: LoginBody): Promise<UserRecord> {
    const user = await store.getUserByEmail(body.username);
    if (user?.passwordHash === null || user === undefined) {
      // As long as a wrong password: the answer's timing does not tell which emails exist.
      await hasher.verifyDummy(body.password);
    } else {
      const check = await hasher.verify(body.password, user.passwordHash);
      if (check.ok) {
        if (check.needsRehash) {
          await store.updateUser(user.userId, { passwordHash: await hasher.hash(body.password) }).catch((err) => {
            request.log.warn({ err, userId: user.userId }, "could not rehash a legacy password hash");
          });
        }
        return user;
      }
    }
    const state = await store.registerLoginFailure(loginKey(request), accounts.loginFailurePolicy, settings.now());
    if (state.lockedUntil !== null) {
      // Never the email or password: the address and how long it is locked.
      request.log.warn({ event: "login_lockout", ip: request.ip, lockedUntil: state.lockedUntil }, "login locked out");
    }
    throw authError("UNAUTHORIZED", "invalid_credentials", "Incorrect email or password");
  }

  app.post<{ Body: LoginBody }>(
    "/login/local",
    {
      config: open,
      schema: {
        summary: "Sign in with email and password (form-urlencoded or JSON); sets the session cookie",
        tags: ["auth"],
        body: loginBodySchema,
        response: { 200: loginResponseSchema },
        "x-errors": [401, 403, 429],
      },
    },
    async (request, reply) => {
      const lockedUntil = await store.loginLockedUntil(loginKey(request), settings.now());
      if (lockedUntil !== null) {
        const seconds = Math.max(1, Math.ceil((Date.parse(lockedUntil) - settings.now().getTime()) / 1000));
        reply.header("retry-after", String(seconds));
        throw new GatewayError("TOO_MANY_REQUESTS", TOO_MANY_LOGINS_MESSAGE);
      }
      const user = await verifyLogin(request, request.body);
      if (user.disabled) throw authError("FORBIDDEN", "account_disabled", "This account is disabled");
      await store.clearLoginFailures(loginKey(request));
      await issuer.issue(request, reply, user, { rememberMe: request.body.remember_me });
      return { expires_in: settings.lifetimeSeconds, needs_setup: user.needsSetup };
    },
  );

  app.post<{ Body: CredentialsBody }>(
    "/register",
    {
      config: open,
      schema: {
        summary: "Create a user account (role user) and sign in",
        tags: ["auth"],
        body: credentialsBodySchema,
        response: { 201: userResponseSchema },
        "x-errors": [400, 403, 409],
      },
    },
    async (request, reply) => {
      if (!accounts.allowRegistration) {
        throw authError("FORBIDDEN", "registration_disabled", "Self-registration is disabled on this deployment");
      }
      // Before the first admin exists a registered user would block /initialize for good.
      if ((await store.countUsers({ systemRole: "admin" })) === 0) {
        throw authError(
          "CONFLICT",
          "system_not_initialized",
          "The system has no administrator yet; initialize it first",
        );
      }
      checkNewPassword(request.body.password, "password");
      let user: UserRecord;
      try {
        user = await store.createUser({
          email: request.body.email,
          passwordHash: await hasher.hash(request.body.password),
          systemRole: "user",
        });
      } catch (err) {
        if (codeOf(err) === "EMAIL_EXISTS") {
          throw authError("BAD_REQUEST", "email_already_exists", "Email already registered");
        }
        throw err;
      }
      await issuer.issue(request, reply, user, { rememberMe: request.body.remember_me });
      return reply.code(201).send(userResponse(user));
    },
  );

  app.post<{ Body: CredentialsBody }>(
    "/initialize",
    {
      config: open,
      schema: {
        summary: "Create the first admin account (only while there is no user) and sign in",
        tags: ["auth"],
        body: credentialsBodySchema,
        response: { 201: userResponseSchema },
        "x-errors": [400, 403, 409],
      },
    },
    async (request, reply) => {
      const initialized = () => authError("CONFLICT", "system_already_initialized", "System already initialized");
      if ((await store.countUsers()) > 0) throw initialized();
      checkNewPassword(request.body.password, "password");
      let user: UserRecord;
      try {
        user = await store.createFirstAdmin({
          email: request.body.email,
          passwordHash: await hasher.hash(request.body.password),
          systemRole: "admin",
          needsSetup: false,
        });
      } catch (err) {
        if (codeOf(err) === "ALREADY_INITIALIZED") throw initialized();
        throw err;
      }
      await issuer.issue(request, reply, user, { rememberMe: request.body.remember_me });
      return reply.code(201).send(userResponse(user));
    },
  );

  app.post(
    "/logout",
    {
      config: open,
      schema: {
        summary: "Sign out: end the session and clear its cookies",
        tags: ["auth"],
        response: { 200: messageResponseSchema },
      },
    },
    async (request, reply) => {
      const credential = request.account?.credential;
      if (credential?.kind === "session") await store.deleteSession(credential.sessionId);
      clearAuthCookies(reply, isSecureRequest(request, settings.cookieSecure));
      return { message: "Successfully logged out" };
    },
  );

  app.post<{ Body: ChangePasswordBody }>(
    "/change-password",
    {
      schema: {
        summary: "Change the password (and optionally the email); signs out every other session",
        tags: ["auth"],
        body: changePasswordBodySchema,
        response: { 200: messageResponseSchema },
        "x-errors": [400, 403],
      },
    },
    async (request, reply) => changePassword(request, reply),
  );

  async function changePassword(
    request: FastifyRequest<{ Body: ChangePasswordBody }>,
    reply: FastifyReply,
  ): Promise<Record<string, string>> {
    const account = requireAccount(request);
    const { user } = account;
    const body = request.body;
    if (user.passwordHash === null) {
      throw authError("BAD_REQUEST", "invalid_credentials", "OAuth users cannot change password");
    }
    if (!(await hasher.verify(body.current_password, user.passwordHash)).ok) {
      throw authError("BAD_REQUEST", "invalid_credentials", "Current password is incorrect");
    }
    checkNewPassword(body.new_password, "new_password");
    if (body.new_email !== undefined) {
      const other = await store.getUserByEmail(body.new_email);
      if (other !== undefined && other.userId !== user.userId) {
        throw authError("BAD_REQUEST", "email_already_exists", "Email already in use");
      }
    }
    let updated: UserRecord;
    try {
      updated = await store.updateUser(user.userId, {
        passwordHash: await hasher.hash(body.new_password),
        bumpTokenVersion: true,
        ...(body.new_email === undefined ? {} : { email: body.new_email }),
        ...(user.needsSetup && body.new_email !== undefined ? { needsSetup: false } : {}),
      });
    } catch (err) {
      if (codeOf(err) === "EMAIL_EXISTS")
        throw authError("BAD_REQUEST", "email_already_exists", "Email already in use");
      throw err;
    }
    // The version bump already refuses older sessions; deleting them frees their rows on every instance.
    await store.deleteUserSessions(user.userId);
    if (account.credential.kind === "session") {
      const rememberMe = body.remember_me ?? requestCookies(request)[SESSION_PERSISTENT_COOKIE] !== "0";
      await issuer.issue(request, reply, updated, { rememberMe });
    }
    return { message: "Password changed successfully" };
  }

  app.get(
    "/me",
    {
      schema: {
        summary: "The signed-in user",
        tags: ["auth"],
        response: { 200: userResponseSchema },
      },
    },
    async (request, reply) => {
      const { user, credential } = requireAccount(request);
      if (credential.kind === "session" && (requestCookies(request)[CSRF_COOKIE] ?? "") === "") {
        const persistent = requestCookies(request)[SESSION_PERSISTENT_COOKIE] === "1";
        const secure = isSecureRequest(request, settings.cookieSecure);
        setCsrfCookie(reply, secure, persistent ? settings.lifetimeSeconds : undefined);
      }
      const { id, email, system_role, oauth_provider, needs_setup } = toWireUser(user);
      return { id, email, system_role, oauth_provider, needs_setup };
    },
  );

  app.get(
    "/setup-status",
    {
      config: open,
      schema: {
        summary: "Whether the first admin still has to be created",
        tags: ["auth"],
        response: { 200: setupStatusSchema },
      },
    },
    async () => ({
      needs_setup: (await store.countUsers()) === 0,
      registration_enabled: accounts.allowRegistration,
    }),
  );

  app.get(
    "/providers",
    {
      config: open,
      schema: { summary: "Sign-in methods", tags: ["auth"], response: { 200: providersSchema } },
    },
    async () => ({ local: true, oidc: accounts.options.oidcProviders?.() ?? [] }),
  );
}
