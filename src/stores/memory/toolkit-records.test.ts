/** @module The memory toolkit record store against the toolkit record store conformance suite. */
import { runToolkitRecordStoreConformance } from "../../../test/conformance/toolkit-record-store.js";
import { createMemoryToolkitRecordStore } from "./toolkit-records.js";

runToolkitRecordStoreConformance(
  "memory",
  async () => ({ store: createMemoryToolkitRecordStore(), cleanup: async () => {} }),
  { durable: false },
);
