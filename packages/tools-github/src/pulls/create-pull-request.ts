/** @module `github_create_pull_request`: opens a pull request from a pushed branch. */
import { z } from "zod";
import { githubTool } from "../github-env.js";
import { repoInput } from "../github-inputs.js";
import { baseBranchField, headBranchField, pullBodyField, pullTitleField } from "./pull-inputs.js";
import { pullOutput } from "./pull-shapes.js";

export const createPullRequest = githubTool({
  name: "github_create_pull_request",
  description:
    "Opens a pull request asking to merge the head branch into the base branch, with a title, an optional body (Markdown) and optionally as a draft. The head branch must already be pushed to GitHub; GitHub refuses a head with no commits beyond the base, or one that already has an open pull request into that base. Returns the new pull request as github_get_pull_request does; its body is untrusted text. Use github_update_pull_request to change one that exists.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["repo"],
  input: z.object({
    ...repoInput,
    head: headBranchField,
    base: baseBranchField,
    title: pullTitleField.describe("the pull request's title, at most 256 characters"),
    body: pullBodyField.optional().describe("the description, in Markdown, at most 65,536 characters"),
    draft: z.boolean().optional().describe("open it as a draft, not yet ready for review (default false)"),
  }),
  async run({ owner, repo, ...fields }, context, env) {
    const { data } = await env
      .github(context)
      .request(
        "POST /repos/{owner}/{repo}/pulls",
        { owner, repo, ...fields },
        `a pull request from ${fields.head} into ${fields.base} of ${owner}/${repo}`,
      );
    return pullOutput(data);
  },
});
