/** Web tools: search, fetch and image search behind the SSRF-safe fetcher. */
export {
  classifyAddress,
  refusedClass,
  type AddressClass,
  type AddressPolicyOptions,
} from "./safe-fetch/address-policy.js";
export { systemResolver, type HostResolver, type ResolvedAddress } from "./safe-fetch/resolver.js";
export { SafeFetchError, type SafeFetchErrorCode } from "./safe-fetch/safe-fetch-error.js";
export {
  createSafeFetch,
  finalUrl,
  readLimitedBody,
  type ReadLimitedBodyOptions,
  type SafeFetch,
  type SafeFetchOptions,
} from "./safe-fetch/safe-fetch.js";
export { vetUrl } from "./safe-fetch/vet-url.js";
export { WebToolError, type WebToolErrorCode } from "./web-tool-error.js";
export type { ProviderContext } from "./provider-context.js";
export type { SearchHit, WebSearchProvider, WebSearchResult } from "./search/web-search-provider.js";
export { WEB_SEARCH_PROVIDERS } from "./search/providers.js";
export type { WebFetchProvider } from "./fetch/web-fetch-provider.js";
export { WEB_FETCH_PROVIDERS } from "./fetch/providers.js";
export { htmlToMarkdown, type ExtractedPage } from "./fetch/html-to-markdown.js";
export type { ImageHit, ImageSearchProvider } from "./image/image-search-provider.js";
export { IMAGE_SEARCH_PROVIDERS } from "./image/providers.js";
export type { ToolConfigProblem, ToolEntry, ToolsConfig, WebToolKind } from "./config/tool-entry.js";
export { validateToolsConfig } from "./config/validate-tools-config.js";
export { ToolConfigStore } from "./config/tool-config-store.js";
export type { WebToolDeps } from "./tool-runtime.js";
export {
  WebToolConfigError,
  createImageSearchTool,
  createWebFetchTool,
  createWebSearchTool,
  type WebToolOptions,
} from "./web-tools.js";
export {
  createConfiguredTools,
  isToolLike,
  toolGroupFilter,
  toolsForGroups,
  type ConfiguredTool,
  type CreateConfiguredToolsOptions,
} from "./configured-tools.js";
