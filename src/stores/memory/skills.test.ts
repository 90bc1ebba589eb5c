/** @module The memory skill store against the skill store conformance suite. */
import { runSkillStoreConformance } from "../../../test/conformance/skill-store.js";
import { createMemorySkillStore } from "./skills.js";

runSkillStoreConformance("memory", async () => ({
  store: createMemorySkillStore(),
  cleanup: async () => {},
}));
