/**
 * `@deerflow/gateway`: the HTTP layer of DeerFlow in TypeScript, on Fastify 5.
 *
 * - {@link createGateway}: the app with CORS, API-key auth, health probes, the
 *   OpenAPI document, one `{"detail": ...}` error format, and route plugins under `/api`.
 * - {@link skillsRoutes}: DeerFlow's skills API over `@deerflow/skills`
 *   ({@link createSharedSkillsBackend}), plus `.skill` upload.
 * - {@link filesRoutes}: thread uploads, listings and artifacts over a
 *   {@link ThreadFiles} store ({@link LocalThreadFiles} shares `@deerflow/sandbox`'s layout).
 *
 * @packageDocumentation
 */

// App
export { API_PREFIX, DEFAULT_BODY_LIMIT, EXPOSED_HEADERS, createGateway } from "./gateway.js";
export type { CorsOptions, GatewayOptions, GatewaySkillsOptions } from "./gateway-options.js";

// Errors
export { GatewayError, isDeerflowError, type GatewayErrorCode } from "./errors.js";
export { ERROR_STATUS_BY_CODE, RETRY_AFTER_SECONDS_BY_CODE } from "./http/status-table.js";
export { DRAINING_MESSAGE, GatewayDrain, drainGateway, type DrainOptions } from "./http/drain.js";
export { toErrorResponse, type ErrorResponse } from "./http/error-response.js";
export { toValidationIssues, type AjvLikeError, type ValidationIssue } from "./http/validation-detail.js";
export { guarded } from "./http/guarded.js";

// Auth
export { ANONYMOUS_ADMIN, DEFAULT_USER_ID, roleOf, type Principal } from "./auth/principal.js";
export {
  ApiKeyRing,
  ROLE_PATTERN,
  USER_ID_PATTERN,
  presentedKey,
  type ApiKeyEntry,
  type AuthOptions,
} from "./auth/api-keys.js";
export { PUBLIC_PATHS, UNAUTHORIZED_MESSAGE } from "./auth/auth-hook.js";
export { SKILLS_ADMIN_MESSAGE, requireAdmin } from "./auth/require-admin.js";
export type { ThreadAuthorizer } from "./auth/thread-access.js";

// Accounts (local users, sessions, CSRF, per-user API keys)
export type {
  AccountsOptions,
  AccountsRouteContext,
  AccountsRoutePlugin,
  OidcProviderInfo,
} from "./auth/accounts-options.js";
export { accountPrincipal } from "./auth/auth-hook.js";
export {
  API_KEY_TOUCH_INTERVAL_MS,
  AccountAuthenticator,
  type AccountCredential,
  type AuthenticatedAccount,
} from "./auth/account-authenticator.js";
export { DEFAULT_LOGIN_FAILURE_POLICY, MIN_SECRET_BYTES } from "./auth/accounts-runtime.js";
export { anonymousRoute } from "./auth/anonymous-route.js";
export { authError, type AuthErrorCode, type AuthErrorDetail } from "./auth/auth-error-detail.js";
export {
  ACCESS_TOKEN_COOKIE,
  CSRF_COOKIE,
  SESSION_PERSISTENT_COOKIE,
  clearAuthCookies,
  requestCookies,
} from "./auth/auth-cookies.js";
export {
  AUTH_ENDPOINT_PATHS,
  AUTH_ROUTES_PREFIX,
  CROSS_SITE_AUTH_MESSAGE,
  CSRF_EXEMPT_PATHS,
  CSRF_MISMATCH_MESSAGE,
  CSRF_MISSING_MESSAGE,
} from "./auth/csrf-guard.js";
export { CSRF_HEADER, setCsrfCookie } from "./auth/csrf-token.js";
export { CookieSessionIssuer } from "./auth/cookie-session-issuer.js";
export type { IssueSessionOptions, SessionIssuer } from "./auth/session-issuer.js";
export {
  DEFAULT_TOKEN_EXPIRY_DAYS,
  MAX_TOKEN_EXPIRY_DAYS,
  MIN_TOKEN_EXPIRY_DAYS,
  isSecureRequest,
  type SessionSettings,
} from "./auth/session-settings.js";
export {
  DEFAULT_BCRYPT_COST,
  PASSWORD_HASH_V1,
  PASSWORD_HASH_V2,
  PasswordHasher,
  type PasswordCheck,
} from "./auth/password-hasher.js";
export { COMMON_PASSWORD_MESSAGE, MIN_PASSWORD_LENGTH, passwordProblem } from "./auth/password-policy.js";
export { TOO_MANY_LOGINS_MESSAGE } from "./auth/local-auth-routes.js";
export { USERS_ADMIN_MESSAGE } from "./auth/user-admin-routes.js";
export { USER_API_KEY_PREFIX } from "./auth/user-api-key.js";
export { NOT_AUTHENTICATED_MESSAGE } from "./auth/unauthorized.js";
// SSO login (OIDC)
export {
  DEFAULT_NEXT_PATH,
  DEFAULT_OIDC_TIMEOUT_SECONDS,
  INVALID_PROVIDER_MESSAGE,
  MISSING_CODE_OR_STATE_MESSAGE,
  MISSING_STATE_COOKIE_MESSAGE,
  SSO_DISABLED_MESSAGE,
  STATE_MISMATCH_MESSAGE,
  createOidcLogin,
  listOidcProviders,
  type OidcLogin,
  type OidcLoginOptions,
} from "./auth/oidc/oidc-login.js";
export {
  DEFAULT_OIDC_SCOPES,
  OIDC_PROVIDER_ID_PATTERN,
  type OidcProviderOptions,
  type OidcSettings,
  type TokenEndpointAuthMethod,
} from "./auth/oidc/oidc-options.js";
export type { OidcAccounts } from "./auth/oidc/oidc-accounts.js";
export type { OidcIdentity } from "./auth/oidc/oidc-identity.js";
export { OidcLoginError, type OidcLoginErrorCode, type OidcRedirectErrorCode } from "./auth/oidc/oidc-login-error.js";
export { PROVIDER_UNREACHABLE_MESSAGE } from "./auth/oidc/oidc-provider-client.js";
export { provisionOidcUser, type ProvisionedUser } from "./auth/oidc/provision-oidc-user.js";
export { MAX_NEXT_PATH_LENGTH, safeNextPath } from "./auth/oidc/safe-next-path.js";
export {
  THREAD_OWNER_KEY,
  checkOwnerClaim,
  mayAccessThread,
  ownerMetadataOf,
  ownerScopedFilter,
} from "./auth/thread-owner.js";
export { ownerThreadAuthorizer } from "./auth/owner-thread-authorizer.js";
export {
  AUTHORIZATION_PROVIDER_SHAPE,
  isAuthorizationProvider,
  type AuthorizationDecision,
  type AuthorizationProvider,
  type AuthorizationReason,
  type AuthorizationSubject,
  type MaybeDecision,
} from "./authz/authorization-provider.js";
export { AuthorizationError, type AuthorizationErrorCode } from "./authz/authorization-error.js";
export {
  RBAC_RESOURCES,
  RbacAuthorizationProvider,
  type RbacAuthorizationOptions,
  type RbacResource,
  type RbacRole,
  type RbacRule,
} from "./authz/rbac-authorization-provider.js";
export {
  Authorization,
  NO_AUTHORIZED_MODEL_MESSAGE,
  permissionDeniedMessage,
  subjectOf,
  type AuthorizationOptions,
} from "./authz/authorization.js";
export {
  ALL_PERMISSIONS,
  PERMISSION_SCOPED_PREFIXES,
  Permissions,
  ROUTE_PERMISSIONS,
  isPermissionScoped,
  routePermissionOf,
  type RoutePermission,
} from "./authz/route-permissions.js";
export { RUN_USER_ROLE_KEY } from "./authz/run-authorization.js";

// Health and OpenAPI
export {
  DEFAULT_HEALTH_TIMEOUT_MS,
  type HealthCheck,
  type HealthDetails,
  type HealthOptions,
} from "./health/health-routes.js";
export { ERROR_BODY_DOC, type OpenApiOptions } from "./openapi/openapi.js";
export { THREAD_ID_PATTERN, successMessageSchema, threadIdSchema, threadParamsSchema } from "./schemas.js";

// Models
export { registerModelsRoutes, type ModelCatalog, type ModelDescriptor } from "./models/models-routes.js";

// Skills
export { RELOAD_RESPONSE, skillsRoutes } from "./skills/skills-routes.js";
export type { SkillsRoutesOptions } from "./skills/skills-routes-options.js";
export type { CustomSkillEditor, SkillCatalogView, SkillsBackend, UserSkills } from "./skills/skills-backend.js";
export { createSharedSkillsBackend, type SharedSkillsBackendOptions } from "./skills/shared-skills-backend.js";
export { createPerUserSkillsBackend, type PerUserSkillsBackendOptions } from "./skills/per-user-skills-backend.js";
export { cleanSkillName, toSkillResponse, toWireHistoryRecord } from "./skills/skill-wire.js";
export { skillErrorDetail, type SecurityBlockDetail } from "./skills/skill-error-detail.js";

// Thread files
export { filesRoutes, type FilesRoutesOptions } from "./files/files-routes.js";
export type {
  ByteRange,
  OpenedThreadFile,
  ThreadFileInfo,
  ThreadFiles,
  ThreadScope,
  UploadBatch,
} from "./files/thread-files.js";
export type { ArchivePreviewOptions } from "./files/skill-archive-member.js";
export { toWireFileInfo } from "./files/file-info-wire.js";
export { LocalThreadFiles, type LocalThreadFilesOptions } from "./files/local-thread-files.js";
export { DEFAULT_UPLOAD_LIMITS, type UploadLimits } from "./files/receive-uploads.js";
export { writeMarkdownCompanions, type DocumentConverter } from "./files/document-converter.js";
export {
  OUTSIDE_USER_DATA_MESSAGE,
  TRAVERSAL_MESSAGE,
  USER_DATA_AREAS,
  USER_DATA_ROOT,
  parseUserDataPath,
  virtualPathOf,
  type UserDataArea,
  type UserDataPath,
} from "./files/virtual-path.js";
export { MAX_FILENAME_BYTES, clientBasename, existingFilename, uploadFilename } from "./files/safe-filename.js";
export { claimUniqueName } from "./files/unique-name.js";
export { entityTag, ifRangeAllows, parseByteRange, type RangeDecision } from "./files/byte-range.js";
export { contentDisposition, contentTypeFor, isActiveContent } from "./files/content-type.js";

// LangGraph Platform store API
export { STORE_KEY_REQUIRED_MESSAGE, storeRoutes, type StoreRoutesOptions } from "./store/store-routes.js";
export { STORE_ROUTES_ROOT, ownerPrefix, userLabel } from "./store/store-owner.js";

// LangGraph-Platform-compatible API
export { DEFAULT_HEARTBEAT_MS, langgraphRoutes, type LangGraphRoutesOptions } from "./langgraph/langgraph-routes.js";
export {
  AssistantRegistry,
  type AssistantConfig,
  type AssistantDefinition,
  type AssistantSearchQuery,
  type RegisteredAssistant,
} from "./langgraph/assistant-registry.js";
export {
  emptyThreadState,
  toWireThreadState,
  type CheckpointSelector,
  type StateConfig,
  type StateSnapshotLike,
  type ThreadStateGraph,
  type WireThreadState,
  type WireThreadTask,
} from "./langgraph/state-graph.js";
export { DEFAULT_MULTITASK_STRATEGY, DEFAULT_ON_DISCONNECT, toCreateRunInput } from "./langgraph/run-input.js";
export type { RunCreateBody } from "./langgraph/schemas.js";
export { toWireAssistant, toWireRun, toWireThread } from "./langgraph/wire.js";

// Wire types (the JSON answered, for clients such as the web console)
export type {
  SkillResponse,
  WireCustomSkill,
  WireFileInfo,
  WireFinding,
  WireHistoryRecord,
  WireSkillFile,
  WireThreadFileListing,
  WireUploadLimits,
  WireUploadResult,
} from "./wire-types.js";
