/** @module `toolreg/adapters/langchain`: the catalogue as LangChain.js tools, every call through the seam. */
export type { SeamAdapterOptions } from "../seam-bridge.js";
export { langChainTools } from "./langchain-tools.js";
export { type ParkedCall, resumeApproved } from "./resume-approved.js";
