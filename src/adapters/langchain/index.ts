/**
 * @module `toolreg/adapters/langchain`: the catalogue as LangChain.js tools, every call through the seam,
 * and the agent middleware that asks the agent's human about the calls toolreg would park.
 */
export type { SeamAdapterOptions } from "../seam-bridge.js";
export { type ApprovalMiddlewareSettings, toolregApprovalMiddleware } from "./approval-middleware.js";
export { langChainTools } from "./langchain-tools.js";
export { type ParkedCall, resumeApproved } from "./resume-approved.js";
