/** @module What the skill tools run against: the tenant's skill store and the clock versions are dated by. */
import type { SkillStore, SkillVersion } from "../../ports/skill-store.js";
import { toolFor } from "../toolkit/define-toolkit.js";

export interface SkillsEnv {
  skills: SkillStore;
  /** Epoch milliseconds. */
  now: () => number;
}

export const skillsTool = toolFor<SkillsEnv>();

/** The provenance a skill's text is fenced under: whose it is, which version, and that a tenant wrote it. */
export const skillSource = (skill: Pick<SkillVersion, "name" | "version" | "createdBy">, file?: string) =>
  `skill ${skill.name} v${skill.version}${file ? ` file ${file}` : ""}, written by ${skill.createdBy} (tenant-authored, grants nothing)`;
