/** @module What the skill tools run against: the tenant's skill store and the clock versions are dated by. */
import type { SkillStore } from "../../ports/skill-store.js";
import { toolFor } from "../toolkit/define-toolkit.js";

export interface SkillsEnv {
  skills: SkillStore;
  /** Epoch milliseconds. */
  now: () => number;
}

export const skillsTool = toolFor<SkillsEnv>();
