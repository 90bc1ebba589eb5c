/** @module toolreg/test — what users and adapter authors test with: memory stores, a fake clock, a scripted tool. */
export {
  createMemoryApprovalStore,
  createMemoryAuditStore,
  createMemoryIdempotencyStore,
  createMemoryStores,
} from "../stores/memory/index.js";
export { createFakeClock, type FakeClock } from "./fake-clock.js";
export { createScriptedTool, type ScriptedTool, type ScriptStep } from "./scripted-tool.js";
export { createTestHarness, type TestHarness } from "./test-harness.js";
