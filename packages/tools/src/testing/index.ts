/**
 * `@deerflow/tools/testing`: conformance kits for plugin authors. Each kit
 * registers its suites with the test functions it is given (`describe`, `it`,
 * `expect`: vitest's or jest's as they are, or `nodeTestRunner(nodeTest)`).
 *
 * @packageDocumentation
 */
export {
  pluginToolConformance,
  type ConformingTool,
  type PluginToolConformanceOptions,
} from "./plugin-tool-conformance.js";
export { mcpConfigSourceConformance, type McpConfigSourceConformanceOptions } from "./mcp-config-source-conformance.js";
export {
  nodeTestRunner,
  type ConformanceDescribe,
  type ConformanceExpect,
  type ConformanceIt,
  type ConformanceMatchers,
  type ConformanceRunner,
  type NodeTestModule,
} from "@deerflow/kernel";
