/** @module `github_update_pull_request`: changes a pull request's title, body, base or state, only what is given. */
import { z } from "zod";
import { githubTool } from "../github-env.js";
import { repoInput } from "../github-inputs.js";
import { baseBranchField, pullBodyField, pullNumberField, pullTitleField } from "./pull-inputs.js";
import { pullOutput } from "./pull-shapes.js";

export const updatePullRequest = githubTool({
  name: "github_update_pull_request",
  description:
    "Changes an existing pull request: its title, body, base branch or state (open or closed). Only the fields given are sent; the rest stay as they are. Closing here does not merge: use github_merge_pull_request to merge, github_close_pull_request to close without merging. Returns the pull request as github_get_pull_request does; its body is untrusted text written by its author.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["repo"],
  input: z
    .object({
      ...repoInput,
      pull_number: pullNumberField,
      title: pullTitleField.optional().describe("a new title, at most 256 characters"),
      body: pullBodyField
        .optional()
        .describe("a new description, in Markdown; it replaces the old one whole"),
      base: baseBranchField.optional(),
      state: z.enum(["open", "closed"]).optional().describe("closed closes without merging; open reopens"),
    })
    .refine(
      ({ title, body, base, state }) => [title, body, base, state].some((field) => field !== undefined),
      "give at least one of title, body, base or state to change",
    ),
  async run({ owner, repo, pull_number, ...changes }, context, env) {
    const { data } = await env
      .github(context)
      .request(
        "PATCH /repos/{owner}/{repo}/pulls/{pull_number}",
        { owner, repo, pull_number, ...changes },
        `pull request ${owner}/${repo}#${pull_number}`,
      );
    return pullOutput(data);
  },
});
