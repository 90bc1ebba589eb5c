/** @module `toolreg/adapters/openai-agents`: the catalogue as OpenAI Agents SDK tools, every call through the seam. */
export type { SeamAdapterOptions } from "../seam-bridge.js";
export { openAIAgentsTools, type SeamFunctionTool } from "./openai-agents-tools.js";
