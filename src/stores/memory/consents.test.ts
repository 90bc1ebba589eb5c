/** @module The memory consent store against the consent store conformance suite. */
import { runConsentStoreConformance } from "../../ports/consent-store.conformance.js";
import { createMemoryConsentStore } from "./consents.js";

runConsentStoreConformance("memory", async () => ({
  store: createMemoryConsentStore(),
  cleanup: async () => {},
}));
