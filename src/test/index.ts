/** @module toolreg/test — what users and adapter authors test with: memory stores, a fake clock, a scripted tool, a vendor's fake server. */
export {
  createMemoryApprovalStore,
  createMemoryAuditStore,
  createMemoryIdempotencyStore,
  createMemoryStores,
} from "../stores/memory/index.js";
export { createMemoryToolkitRecordStore } from "../stores/memory/toolkit-records.js";
export { createFakeClock, type FakeClock } from "./fake-clock.js";
export { createScriptedTool, type ScriptedTool, type ScriptStep } from "./scripted-tool.js";
export { createTestHarness, type TestHarness } from "./test-harness.js";
export {
  type FakeReply,
  HTML_PAGE,
  type SeenRequest,
  startVendorFake,
  type VendorFake,
  type VendorRules,
} from "./vendor-fake.js";
