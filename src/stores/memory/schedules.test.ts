/** @module The memory schedule store against the schedule store conformance suite. */
import { runScheduleStoreConformance } from "../../../test/conformance/schedule-store.js";
import { createMemoryScheduleStore } from "./schedules.js";

runScheduleStoreConformance("memory", async (options) => ({
  store: createMemoryScheduleStore(options),
  cleanup: async () => {},
}));
