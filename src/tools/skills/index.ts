/** @module The skills toolkit: each tenant's skills, kept in a SkillStore. */
import type { SkillStore } from "../../ports/skill-store.js";
import type { ToolModule } from "../../registry/tool-module.js";
import { skillsToolkit } from "./toolkit.js";

export { skillsToolkit } from "./toolkit.js";

export interface SkillToolDeps {
  /** Where each tenant's skills are kept; without one there is no load_skill or skill_manage. */
  skills?: SkillStore;
}

export const skillTools: ToolModule<SkillToolDeps> = (deps) =>
  deps.skills ? skillsToolkit.withEnv({ skills: deps.skills, now: Date.now }) : [];
