/**
 * @module The skills toolkit: the tenant's skills, loaded on demand (load_skill) and kept by agents
 * (skill_manage), in the deployment's skill store. With no store on the host its tools are not served.
 */
import { z } from "zod";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { loadSkillSpec } from "./load-skill.js";
import { skillManageSpec } from "./skill-manage.js";

export const skillsToolkit = defineToolkit({
  id: "skills",
  version: "1.0.0",
  package: "toolreg",
  description:
    "The tenant's skills: load one's instructions when a task calls for them, write or remove a version.",
  config: z.strictObject({}),
  auth: { kind: "none" },
  tools: [loadSkillSpec, skillManageSpec],
  reviewedOverrides: [{ tool: "skill_manage", field: "approval" }],
  bind: (_config, host) => (host.skills ? { skills: host.skills, now: Date.now } : undefined),
});
