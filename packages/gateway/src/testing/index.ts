/**
 * `@deerflow/gateway/testing`: the conformance kit for `AuthorizationProvider`
 * implementations, and a local OpenID Connect provider ({@link startFakeOidcIssuer})
 * to test SSO login against. The kit registers its suite with the test functions it is given
 * (vitest's or jest's `describe`, `it`, `expect`, or `nodeTestRunner(nodeTest)` for
 * `node:test`); no test framework is imported.
 *
 * @packageDocumentation
 */
export {
  CONFORMANCE_ROLES,
  authorizationProviderConformance,
  type AuthorizationProviderConformanceOptions,
} from "./authorization-provider-conformance.js";
export {
  assertExpect,
  nodeTestRunner,
  type ConformanceDescribe,
  type ConformanceExpect,
  type ConformanceIt,
  type ConformanceMatchers,
  type ConformanceRunner,
  type NodeTestModule,
} from "@deerflow/kernel";
export {
  startFakeOidcIssuer,
  type FakeOidcIssuer,
  type FakeOidcTampering,
  type FakeOidcUser,
  type FakeTokenRequest,
} from "./fake-oidc-issuer.js";
