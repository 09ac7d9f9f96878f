/**
 * The lead agent's wiring from configuration: the options `createLeadAgent`
 * (of `@deerflow/agent`) compiles the agent from, and the skill scanners they use.
 */
export { createLeadAgentDeps, type CreateLeadAgentDepsOptions, type LeadAgentResources } from "./create-deps.js";
export { combineScanners, isSkillScanner } from "./composite-scanner.js";
