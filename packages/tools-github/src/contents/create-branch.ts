/** @module `github_create_branch`: a new branch from another branch's head or from a commit. */
import { ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { commitShaField, newBranchField, refNameField, urlSegments } from "../git-inputs.js";
import { githubTool } from "../github-env.js";
import { repoInput } from "../github-inputs.js";

export const createBranch = githubTool({
  name: "github_create_branch",
  description:
    "Creates a branch in a GitHub repository, starting at another branch's current head (from_branch) or at a commit (from_sha); give exactly one. It fails, changing nothing, if a branch of that name already exists. Use it before github_write_file to make changes on a branch of their own; github_list_branches shows the existing ones.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["repo"],
  input: z
    .object({
      ...repoInput,
      branch: newBranchField,
      from_branch: refNameField(
        "the branch whose current head the new branch starts at, e.g. main",
      ).optional(),
      from_sha: commitShaField("the full sha of the commit the new branch starts at").optional(),
    })
    .refine((input) => (input.from_branch === undefined) !== (input.from_sha === undefined), {
      message: "give exactly one of from_branch and from_sha",
      path: ["from_branch"],
    }),
  async run({ owner, repo, branch, from_branch: fromBranch, from_sha: fromSha }, context, env) {
    const github = env.github(context);
    const sha =
      fromSha ??
      (
        await github.request(
          `GET /repos/{owner}/{repo}/git/ref/heads/${urlSegments(fromBranch as string)}`,
          { owner, repo },
          `branch ${fromBranch} of ${owner}/${repo}`,
        )
      ).data.object.sha;
    const { data } = await github
      .request(
        "POST /repos/{owner}/{repo}/git/refs",
        { owner, repo, ref: `refs/heads/${branch}`, sha },
        `branch ${branch} of ${owner}/${repo}`,
      )
      .catch((error: unknown) => {
        throw refusedBranch(error, branch, `${owner}/${repo}`, sha);
      });
    const result = { branch, ref: data.ref as string, sha: data.object.sha as string };
    return {
      content: `Created branch ${branch} in ${owner}/${repo} at ${result.sha}`,
      data: result,
    };
  },
});

/** GitHub's two 422s here, told so a model knows what to change. */
function refusedBranch(error: unknown, branch: string, repository: string, sha: string): unknown {
  if (!ToolFailure.isInstance(error) || error.details?.status !== 422) return error;
  const said = String(error.details.githubMessage ?? "");
  if (/already exists/i.test(said)) {
    return new ToolFailure(
      "invalid_input",
      `a branch named ${branch} already exists in ${repository}; nothing was created: pick another name, or use the existing branch`,
      { retryable: false, details: error.details },
    );
  }
  if (/object does not exist/i.test(said)) {
    return new ToolFailure(
      "invalid_input",
      `${repository} has no commit ${sha}; nothing was created: find the sha with github_list_commits`,
      { retryable: false, details: error.details },
    );
  }
  return error;
}
