export { McpError, type McpErrorCode } from "./errors.js";
export {
  MCP_TOOL_NAME_PATTERN,
  mcpToolName,
  type McpOAuthSpec,
  type McpServerSpec,
  type McpTransportType,
} from "./server-spec.js";
export type { McpServerStatus, McpToolSummary } from "./server-status.js";
export { staticMcpSource, type McpConfigSource } from "./config-source.js";
export {
  extensionsFileMcpSource,
  fileSignature,
  fileSignatureReader,
  SIGNATURE_SETTLED_MS,
  type FileSignatureReaderOptions,
} from "./extensions-file-source.js";
export { parseMcpServers } from "./parse-mcp-servers.js";
export {
  McpToolset,
  mcpMetadataOf,
  type McpSessionScope,
  type McpToolMetadata,
  type McpToolsetOptions,
} from "./mcp-toolset.js";
export { toToolContent, type McpToolContent, type McpToolContentBlock } from "./call-result.js";
export {
  TOOL_SEARCH_MAX_RESULTS,
  TOOL_SEARCH_TOOL_NAME,
  catalogHash,
  createToolSearchTool,
  deferredToolsSection,
  searchTools,
  type ToolSearchPromotion,
} from "./tool-search.js";
export {
  createMcpToolsMiddleware,
  estimateToolTokens,
  type McpToolsMiddlewareOptions,
  type ToolSearchOptions,
} from "./mcp-tools-middleware.js";
