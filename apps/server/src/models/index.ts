/** Chat models: OpenAI-compatible providers, the offline demo model, and plugins. */
export {
  createChatModel,
  isChatModelLike,
  type ChatModelPluginInput,
  type CreateChatModelOptions,
} from "./create-chat-model.js";
export { ModelRegistry, type ModelRegistryOptions } from "./model-registry.js";
export { ModelError, type ModelErrorCode } from "./errors.js";
export {
  DemoChatModel,
  DEMO_MODEL_NAME,
  demoTokens,
  type DemoChatModelCallOptions,
  type DemoChatModelFields,
} from "./demo-chat-model.js";
export { planDemoTurn, DEMO_LABEL, type DemoTurn, type PlannedCall } from "./demo/planner.js";
