/** @module The memory pin store, the reference adapter, against the conformance suite every pin store runs. */
import { runPinStoreConformance } from "../../ports/pin-store.conformance.js";
import { createMemoryPinStore } from "./pin-store.js";

runPinStoreConformance("memory", async () => ({ store: createMemoryPinStore(), cleanup: async () => {} }));
