/**
 * @module `github_merge_pull_request`: merges a pull request into its base, destructively (the base branch
 * moves and the merge cannot be taken back by this toolkit). The expected head `sha` is required: a pull
 * request that moved since it was read (or approved) is never merged unread.
 */
import { z } from "zod";
import { commitShaField } from "../git-inputs.js";
import { githubTool } from "../github-env.js";
import { repoInput } from "../github-inputs.js";
import { explainingFailures } from "./explain-failure.js";
import { pullNumberField } from "./pull-inputs.js";

export const mergePullRequest = githubTool({
  name: "github_merge_pull_request",
  description:
    "Merges an open pull request into its base branch, as a merge commit, a squash or a rebase (the repository's settings decide which are allowed). Read it first with github_get_pull_request and pass its head.sha as sha (required): GitHub refuses to merge if new commits were pushed since, so what is merged is what was read. Fails when the pull request is not mergeable (conflicts, failing required checks or reviews, a draft): the error says what to do. Use github_close_pull_request to close without merging.",
  category: "project",
  effect: "destructive",
  cost: "io",
  oauthScopes: ["repo"],
  input: z.object({
    ...repoInput,
    pull_number: pullNumberField,
    merge_method: z
      .enum(["merge", "squash", "rebase"])
      .default("merge")
      .describe("merge (a merge commit, the default), squash (one commit) or rebase (each commit replayed)"),
    sha: commitShaField(
      "the head commit SHA you read (github_get_pull_request's head.sha): GitHub merges only if the head is still there",
    ),
    commit_title: z.string().trim().min(1).optional().describe("the merge or squash commit's title"),
    commit_message: z.string().optional().describe("extra detail appended to the commit message"),
  }),
  async run({ owner, repo, pull_number, ...merge }, context, env) {
    const what = `pull request ${owner}/${repo}#${pull_number}`;
    const { data } = await explainingFailures(
      () =>
        env
          .github(context)
          .request(
            "PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge",
            { owner, repo, pull_number, ...merge },
            `the merge of ${what}`,
          ),
      {
        405: (_, said) =>
          /not allowed on this repository/i.test(said)
            ? `GitHub refused to merge ${what}: ${said} Choose a merge_method the repository allows (merge, squash or rebase).`
            : `GitHub refused to merge ${what}: ${said}. Read it with github_get_pull_request: mergeNote says what blocks it (merge conflicts to resolve on the head branch, required reviews or checks, a draft to mark ready); merge once that is fixed.`,
        409: (_, said) =>
          `GitHub did not merge ${what}: ${said} New commits were pushed since its head was ${merge.sha}. Read it again with github_get_pull_request, review what changed, and merge with the new head.sha if it should still be merged.`,
      },
    );
    const merged = {
      merged: data.merged as boolean,
      sha: data.sha as string,
      message: data.message as string,
    };
    return { content: JSON.stringify(merged), data: merged };
  },
});
