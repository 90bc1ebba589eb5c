/**
 * @module A skill folder as Agent Skills lays it out: `SKILL.md` and the files beside it, read as text. The
 * folder's name must be the skill's name. Symbolic links are refused rather than followed (a skill must
 * not carry the operator's files out of its folder), dot-files are left out, and the walk stops at the
 * store's bounds before anything is held that the store would refuse.
 */
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { parseSkillMd } from "../ports/skill-md.js";
import { SKILL_LIMITS, type SkillDraft } from "../ports/skill-store.js";
import { UsageError } from "./cli-io.js";

/** The skill in `directory` (a path, resolved against `cwd`), checked as the store checks it. */
export function readSkillFolder(directory: string, cwd: string): Required<SkillDraft> {
  const root = resolve(cwd, directory);
  const skillMd = join(root, "SKILL.md");
  let text: string;
  try {
    if (!lstatSync(skillMd).isFile()) throw new Error("SKILL.md is not a file");
    text = readFileSync(skillMd, "utf8");
  } catch (error) {
    throw new UsageError(`${directory}: a skill folder holds a SKILL.md (${(error as Error).message})`);
  }
  const files: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const path = join(folder, entry.name);
      const name = relative(root, path).split(sep).join("/");
      // Checked for folders too, so a deep tree is refused before it is walked.
      if (name.length > SKILL_LIMITS.pathChars)
        throw new UsageError(
          `${directory}: ${name.slice(0, 80)}… is a path over ${SKILL_LIMITS.pathChars} characters`,
        );
      if (entry.isSymbolicLink())
        throw new UsageError(`${directory}: ${name} is a symbolic link; copy the file in instead`);
      if (entry.isDirectory()) {
        walk(path);
        continue;
      }
      if (!entry.isFile() || name === "SKILL.md") continue;
      if (Object.keys(files).length >= SKILL_LIMITS.files)
        throw new UsageError(
          `${directory}: a skill has at most ${SKILL_LIMITS.files} files besides SKILL.md`,
        );
      if (lstatSync(path).size > SKILL_LIMITS.fileBytes)
        throw new UsageError(`${directory}: ${name} is over ${SKILL_LIMITS.fileBytes / 1024} KiB`);
      const bytes = readFileSync(path);
      if (bytes.includes(0))
        throw new UsageError(`${directory}: ${name} is not text; a skill's files are text`);
      files[name] = bytes.toString("utf8");
    }
  };
  walk(root);
  return parseSkillMd(text, { folder: basename(root), files });
}
