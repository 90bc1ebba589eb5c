/**
 * @module The blob sha GitHub requires to replace or delete a file, looked up by the tool itself so a
 * model never supplies one; and GitHub's answer when the file changed between that lookup and the write.
 */
import { ToolFailure } from "toolreg/toolkit";
import { urlSegments } from "../git-inputs.js";
import type { GithubCall } from "../github-client.js";

export interface FileAt {
  owner: string;
  repo: string;
  path: string;
  /** The branch written to; the default branch when undefined. */
  branch: string | undefined;
}

/** `path` with its branch, as a failure message names it. */
export function describeFile({ owner, repo, path, branch }: FileAt): string {
  return `${path} in ${owner}/${repo}${branch ? ` on ${branch}` : ""}`;
}

/** The file's current blob sha, or undefined when no file is there (GitHub's 404). A directory is refused. */
export async function currentFileSha(github: GithubCall, file: FileAt): Promise<string | undefined> {
  const { owner, repo, path, branch } = file;
  try {
    const { data } = await github.request(
      `GET /repos/{owner}/{repo}/contents/${urlSegments(path)}`,
      { owner, repo, ...(branch ? { ref: branch } : {}) },
      `file ${describeFile(file)}`,
    );
    if (Array.isArray(data) || data.type !== "file") {
      throw new ToolFailure(
        "invalid_input",
        `${describeFile(file)} is a ${Array.isArray(data) ? "directory" : data.type}, not a file: only files can be written or deleted`,
      );
    }
    return data.sha as string;
  } catch (error) {
    if (ToolFailure.isInstance(error) && error.details?.status === 404) return undefined;
    throw error;
  }
}

/**
 * GitHub's refusal of a write whose sha went stale between the lookup and the write: a 409 "<path> does
 * not match <sha>" (or "… expected to be at …" when the branch moved), or a 422 "sha wasn't supplied"
 * when the file appeared meanwhile. Told as a conflict to retry; anything else passes through.
 */
export function staleWrite(error: unknown, file: FileAt, tool: string): unknown {
  if (!ToolFailure.isInstance(error)) return error;
  const said = String(error.details?.githubMessage ?? "");
  const status = error.details?.status;
  const stale =
    (status === 409 && /does not match|expected to be at/.test(said)) ||
    (status === 422 && /"sha" wasn't supplied/.test(said));
  if (!stale) return error;
  return new ToolFailure(
    "upstream_error",
    `${describeFile(file)} changed between this tool's lookup and its write (another commit touched it), so nothing was written; read it again with github_get_file if your change depends on it, then call ${tool} again`,
    { retryable: true, details: { ...error.details, conflict: true } },
  );
}
