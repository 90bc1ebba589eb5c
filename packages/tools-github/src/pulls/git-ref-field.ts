/**
 * @module Branch and tag names checked to git's own rules (`git check-ref-format`) before any request, so a
 * hostile name (`../`, a query string, a control character) is refused here rather than sent to GitHub.
 */
import { z } from "zod";

/** What git stores a ref as is a file: one path component of at most 255 bytes is the practical ceiling. */
const MAX_REF_LENGTH = 255;
const FORBIDDEN = new Set(["~", "^", ":", "?", "*", "[", "\\", " "]);

/** True when git would accept `name` as a branch or tag name (git-check-ref-format(1), rules 1 and 3-10). */
export function isGitRefName(name: string): boolean {
  if (name.length === 0 || name.length > MAX_REF_LENGTH || name === "@") return false;
  for (const character of name) {
    const code = character.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || FORBIDDEN.has(character)) return false;
  }
  if (name.includes("..") || name.includes("@{") || name.includes("//")) return false;
  // A leading "-" is refused for branches by git itself (`check-ref-format --branch`), and reads as an option.
  if (name.startsWith("/") || name.startsWith("-") || name.endsWith("/") || name.endsWith(".")) return false;
  return name.split("/").every((part) => !part.startsWith(".") && !part.endsWith(".lock"));
}

const REF_RULE =
  "a git branch or tag name: no spaces, '..', '~', '^', ':', '?', '*', '[', '\\', '@{' or control characters, not starting with '-', '/' or '.', not ending with '/', '.' or '.lock'";

/** A branch or tag name, described for the model as `what`. */
export const gitRefField = (what: string) => z.string().refine(isGitRefName, REF_RULE).describe(what);

/** A full commit SHA: GitHub compares it exactly, so an abbreviated one would never match. */
export const commitShaField = (what: string) =>
  z
    .string()
    .regex(/^[0-9a-fA-F]{40}$/, "a full 40-character hexadecimal commit SHA")
    .describe(what);
