/** @module The reference skill store, in process memory: each tenant's skills, each a list of versions. */
import {
  checkedSkillDraft,
  SKILL_LIMITS,
  type SkillStore,
  type SkillVersion,
  skillFull,
} from "../../ports/skill-store.js";

interface Kept {
  /** The next version's number: never reused while the skill exists. */
  next: number;
  versions: SkillVersion[];
}

export function createMemorySkillStore(): SkillStore {
  const tenants = new Map<string, Map<string, Kept>>();
  const skillsOf = (tenantId: string) => {
    let skills = tenants.get(tenantId);
    if (!skills) {
      skills = new Map();
      tenants.set(tenantId, skills);
    }
    return skills;
  };
  const copy = (version: SkillVersion): SkillVersion => structuredClone(version);
  return {
    async put(tenantId, { createdBy, now, ...draft }) {
      const checked = checkedSkillDraft(draft);
      const skills = skillsOf(tenantId);
      const kept = skills.get(checked.name);
      if (!kept && skills.size >= SKILL_LIMITS.skillsPerTenant) throw skillFull("skills", checked.name);
      if (kept && kept.versions.length >= SKILL_LIMITS.versionsPerSkill)
        throw skillFull("versions", checked.name);
      const skill = kept ?? { next: 1, versions: [] };
      const version: SkillVersion = { ...checked, version: skill.next, createdAt: now, createdBy };
      skill.next++;
      skill.versions.push(version);
      skills.set(checked.name, skill);
      return copy(version);
    },
    async get(tenantId, name, version) {
      const versions = tenants.get(tenantId)?.get(name)?.versions ?? [];
      const found = version === undefined ? versions.at(-1) : versions.find((v) => v.version === version);
      return found ? copy(found) : undefined;
    },
    async list(tenantId) {
      return [...(tenants.get(tenantId)?.values() ?? [])]
        .map(({ versions }) => {
          const latest = versions.at(-1) as SkillVersion;
          return {
            name: latest.name,
            description: latest.description,
            version: latest.version,
            versions: versions.length,
            updatedAt: latest.createdAt,
          };
        })
        .sort((a, b) => (a.name < b.name ? -1 : 1));
    },
    async versions(tenantId, name) {
      return (tenants.get(tenantId)?.get(name)?.versions ?? []).map((v) => v.version);
    },
    async remove(tenantId, name, version) {
      const skills = tenants.get(tenantId);
      const kept = skills?.get(name);
      if (!skills || !kept) return 0;
      const before = kept.versions.length;
      kept.versions = version === undefined ? [] : kept.versions.filter((v) => v.version !== version);
      if (kept.versions.length === 0) skills.delete(name);
      return before - kept.versions.length;
    },
  };
}
