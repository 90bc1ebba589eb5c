/** @module `toolreg/adapters/ai-sdk`: the catalogue as Vercel AI SDK tools, every call through the seam. */
export type { SeamAdapterOptions } from "../seam-bridge.js";
export { aiSdkTools } from "./ai-sdk-tools.js";
