/** @module The refusals a rooted path can earn, each naming its rule, as envelope-ready failures. */
import { ToolFailure } from "../../errors/tool-failure.js";

/** Why a path was refused: one name per rule, so a caller and an audit log can tell them apart. */
export type PathRule =
  | "absolute-path"
  | "parent-segment"
  | "nul-byte"
  | "symlink-escape"
  | "symlink-loop"
  | "symlink-target"
  | "path-changed";

const EXPLANATIONS: Record<PathRule, string> = {
  "absolute-path": "paths are relative to the root; an absolute path is never accepted",
  "parent-segment": 'a ".." segment could climb out of the root, so it is never accepted',
  "nul-byte": "a path may not contain a NUL byte",
  "symlink-escape": "it goes through a symbolic link that points outside the root",
  "symlink-loop": "it goes through too many symbolic links",
  "symlink-target": "the target is a symbolic link, and writes never follow one",
  "path-changed": "a component changed while it was being opened",
};

/** A path as it can safely appear in a message: quoted, escaped, and short. */
export function quotePath(path: string): string {
  const quoted = JSON.stringify(path);
  return quoted.length > 200 ? `${quoted.slice(0, 199)}…"` : quoted;
}

/** `not_authorized`, naming the rule, whether or not the target exists. */
export function refusePath(rule: PathRule, path: string, at?: string): ToolFailure {
  const where = at !== undefined && at !== path ? ` (at ${quotePath(at)})` : "";
  return new ToolFailure(
    "not_authorized",
    `path ${quotePath(path)} refused by rule ${rule}${where}: ${EXPLANATIONS[rule]}`,
    { details: { rule, path, ...(at === undefined ? {} : { at }) } },
  );
}

/** `invalid_input` for a path that is allowed but wrong: missing, or the wrong kind of thing. */
export function badPath(path: string, problem: string, details: Record<string, unknown> = {}): ToolFailure {
  return new ToolFailure("invalid_input", `path ${quotePath(path)} ${problem}`, {
    details: { path, ...details },
  });
}
