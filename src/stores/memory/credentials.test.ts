/** @module The memory credential store against the credential store conformance suite. */
import { runCredentialStoreConformance } from "../../ports/credential-store.conformance.js";
import { createMemoryCredentialStore } from "./credentials.js";

runCredentialStoreConformance("memory", async () => ({
  store: createMemoryCredentialStore(),
  cleanup: async () => {},
}));
