/**
 * @deerflow/tools: the agent's reach. Web tools (search, fetch, image search)
 * behind one SSRF-safe fetcher, and MCP servers as LangChain tools.
 *
 * @packageDocumentation
 */
export * from "./web/index.js";
export * from "./mcp/index.js";
