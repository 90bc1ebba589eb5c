/** @module The memory adapters against the store conformance suite. */
import { runStoreConformance } from "../../../test/conformance/stores.js";
import { createMemoryStores } from "./index.js";

runStoreConformance("memory", async () => ({ stores: createMemoryStores(), cleanup: async () => {} }));
