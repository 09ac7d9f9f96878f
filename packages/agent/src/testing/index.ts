/**
 * `@deerflow/agent/testing`: a scripted OpenAI-compatible endpoint on a real
 * socket, for tests that drive the lead agent (or anything using
 * `@langchain/openai`'s `ChatOpenAI`) through failures, tool calls, streamed
 * reasoning and finish reasons without a network.
 *
 * @packageDocumentation
 */
export { startScriptedOpenAI, type ScriptedOpenAI, type ScriptedOpenAIOptions } from "./scripted-openai.js";
export type {
  RecordedRequest,
  Script,
  ScriptFunction,
  ScriptStep,
  ScriptedError,
  ScriptedReply,
  ScriptedToolCall,
} from "./script.js";
export { isScriptedError } from "./script.js";
export {
  agentStoreConformance,
  type AgentStoreConformanceOptions,
  type AgentStoreHandle,
} from "./agent-store-conformance.js";
