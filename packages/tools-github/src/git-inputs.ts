/**
 * @module Input fields for what lives in a repository: file paths, refs, branch names and commit shas,
 * each held to git's own rules (git check-ref-format, git's path rules) before any request, and the one
 * place a path or ref becomes part of a URL.
 */
import { z } from "zod";

/** Git caps nothing, but Linux's PATH_MAX is what a checkout of the repository can hold. */
const MAX_PATH = 4096;
/** GitHub refuses ref names over 255 bytes (the file name limit of the ref store). */
const MAX_REF = 255;

function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Why a repository path is refused, or undefined when git would take it. */
function pathProblem(path: string): string | undefined {
  if (path === "") return "name a file or directory";
  if (path.startsWith("/")) return "a path inside the repository has no leading '/'";
  if (hasControlCharacter(path)) return "a path has no control characters";
  const segments = path.split("/");
  if (segments.some((segment) => segment === ""))
    return "a path has no empty segment ('//' or a trailing '/')";
  if (segments.some((segment) => segment === "." || segment === ".."))
    return "a path has no '.' or '..' segment";
  return undefined;
}

const repositoryPath = z
  .string()
  .max(MAX_PATH)
  .superRefine((value, context) => {
    const problem = pathProblem(value);
    if (problem) context.addIssue({ code: "custom", message: problem });
  });

/** A file's path from the repository root, e.g. `src/index.ts`. */
export const filePathField = repositoryPath.describe(
  "the file's path from the repository root, e.g. src/index.ts",
);

/** A directory's path from the root; empty or omitted is the root itself. */
export const directoryPathField = z
  .union([z.literal(""), repositoryPath])
  .optional()
  .describe("the directory's path from the repository root, e.g. src/lib; omit it for the root");

/** Why a ref name is refused (git check-ref-format), or undefined when git would take it. */
function refProblem(ref: string): string | undefined {
  if (hasControlCharacter(ref) || /[ ~^:?*[\\]/.test(ref)) {
    return "a ref has no spaces, control characters or any of ~ ^ : ? * [ \\";
  }
  if (ref.includes("..")) return "a ref has no '..'";
  if (ref.includes("@{") || ref === "@") return "a ref is not '@' and has no '@{'";
  if (ref.startsWith("/") || ref.endsWith("/") || ref.includes("//")) {
    return "a ref has no leading, trailing or doubled '/'";
  }
  if (ref.endsWith(".")) return "a ref does not end with '.'";
  // git refuses it for branches (check-ref-format --branch), and a program reads it as an option.
  if (ref.startsWith("-")) return "a ref does not start with '-'";
  if (ref.split("/").some((part) => part.startsWith(".") || part.endsWith(".lock"))) {
    return "no part of a ref starts with '.' or ends with '.lock'";
  }
  return undefined;
}

/** A branch, tag or commit named the way git allows (check-ref-format), described for a model as `what`. */
export const refNameField = (what: string) =>
  z
    .string()
    .min(1)
    .max(MAX_REF)
    .superRefine((value, context) => {
      const problem = refProblem(value);
      if (problem) context.addIssue({ code: "custom", message: problem });
    })
    .describe(what);

/** A branch, a tag or a commit sha to read at; the repository's default branch when omitted. */
export const refField = refNameField(
  "a branch, tag or commit sha to read at; the repository's default branch when omitted",
).optional();

/** A new branch's short name (`feature/login`, not `refs/heads/feature/login`). */
export const newBranchField = refNameField("the new branch's name, e.g. feature/login").refine(
  (name) => !name.startsWith("refs/") && name !== "HEAD",
  "give the short name (feature/x), not refs/heads/feature/x, and not HEAD",
);

/** True when git would take `name` as a branch or tag name. */
export function isGitRefName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_REF && refProblem(name) === undefined;
}

/** A full commit sha: GitHub compares it exactly, so an abbreviated one would never match. */
export const commitShaField = (what: string) =>
  z
    .string()
    .regex(/^[0-9a-fA-F]{40}$/, "a full 40-character hexadecimal commit sha")
    .describe(what);

/** A commit message; git takes any length, GitHub shows the first line as its title. */
export const commitMessageField = z
  .string()
  .min(1, "a commit needs a message")
  .max(10_000)
  .describe("the commit message: a short first line, then details if needed");

/**
 * A repository path or ref as URL path segments: each segment percent-encoded, the slashes kept, as
 * GitHub's own clients send them (`contents/src/a%20b.ts`).
 */
export function urlSegments(value: string): string {
  return value.split("/").map(encodeURIComponent).join("/");
}
