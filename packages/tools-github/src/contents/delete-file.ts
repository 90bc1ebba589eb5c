/** @module `github_delete_file`: removes one file in one commit, finding the file's sha itself. */
import { ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { commitMessageField, filePathField, refNameField, urlSegments } from "../git-inputs.js";
import { githubTool } from "../github-env.js";
import { repoInput } from "../github-inputs.js";
import { currentFileSha, describeFile, staleWrite } from "./current-file.js";

export const deleteFile = githubTool({
  name: "github_delete_file",
  description:
    "Deletes one file from a GitHub repository as one commit, on the given branch (the default branch if omitted); it looks the file's current version up itself. It deletes files only, never directories. The file stays in the repository's history but disappears from the branch for everyone. If the file is not there it fails and changes nothing; if someone changes it between the lookup and the delete, nothing is deleted and the tool says to retry. To change a file's content use github_write_file.",
  category: "project",
  effect: "destructive",
  cost: "io",
  oauthScopes: ["repo"],
  input: z.object({
    ...repoInput,
    path: filePathField,
    message: commitMessageField,
    branch: refNameField(
      "the branch to delete it from; the repository's default branch when omitted",
    ).optional(),
  }),
  async run({ owner, repo, path, message, branch }, context, env) {
    const github = env.github(context);
    const file = { owner, repo, path, branch };
    const sha = await currentFileSha(github, file);
    if (sha === undefined) {
      throw new ToolFailure(
        "upstream_error",
        `there is no file ${describeFile(file)} (or this credential cannot see it), so nothing was deleted; check the path and branch with github_list_directory`,
        { retryable: false, details: { status: 404 } },
      );
    }
    const { data } = await github
      .request(
        `DELETE /repos/{owner}/{repo}/contents/${urlSegments(path)}`,
        { owner, repo, message, sha, ...(branch ? { branch } : {}) },
        describeFile(file),
      )
      .catch((error: unknown) => {
        throw staleWrite(error, file, "github_delete_file");
      });
    const result = {
      path,
      deleted: true,
      branch: branch ?? null,
      commit: { sha: data.commit.sha as string, url: data.commit.html_url as string },
    };
    return { content: `Deleted ${describeFile(file)} in commit ${result.commit.sha}`, data: result };
  },
});
