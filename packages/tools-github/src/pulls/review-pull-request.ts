/** @module `github_review_pull_request`: approves, requests changes on, or comments on a pull request. */
import { z } from "zod";
import { githubTool } from "../github-env.js";
import { repoInput } from "../github-inputs.js";
import { login } from "../github-shapes.js";
import { explainingFailures } from "./explain-failure.js";
import { pullBodyField, pullNumberField } from "./pull-inputs.js";

export const reviewPullRequest = githubTool({
  name: "github_review_pull_request",
  description:
    "Submits a review of a pull request: APPROVE, REQUEST_CHANGES or COMMENT, with a body (Markdown). GitHub requires a body for REQUEST_CHANGES and COMMENT, and refuses APPROVE and REQUEST_CHANGES on a pull request opened by the credential's own account (leave a COMMENT instead). The review applies to the pull request's latest commit. Returns the review's id, state and link.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["repo"],
  input: z
    .object({
      ...repoInput,
      pull_number: pullNumberField,
      event: z
        .enum(["APPROVE", "REQUEST_CHANGES", "COMMENT"])
        .describe("APPROVE, REQUEST_CHANGES (blocks merging where reviews are required) or COMMENT"),
      body: pullBodyField
        .optional()
        .describe("the review's text, in Markdown; required for REQUEST_CHANGES and COMMENT"),
    })
    .refine(
      ({ event, body }) => event === "APPROVE" || (body ?? "").trim() !== "",
      // GitHub's own refusal: "You need to leave a comment indicating the requested changes."
      { message: "GitHub requires a body for REQUEST_CHANGES and COMMENT reviews", path: ["body"] },
    ),
  async run({ owner, repo, pull_number, event, body }, context, env) {
    const what = `a review of pull request ${owner}/${repo}#${pull_number}`;
    const { data } = await explainingFailures(
      () =>
        env
          .github(context)
          .request(
            "POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews",
            { owner, repo, pull_number, event, body },
            what,
          ),
      {
        422: (failure, said) =>
          /own pull request/i.test(JSON.stringify(failure.details?.errors ?? said))
            ? `GitHub refused ${what}: the credential's account opened this pull request, and GitHub lets no one approve or request changes on their own pull request. Leave a COMMENT review instead, or ask another reviewer`
            : undefined,
      },
    );
    const review = {
      id: data.id as number,
      state: data.state as string,
      author: login(data.user),
      commitId: data.commit_id as string,
      submittedAt: (data.submitted_at ?? null) as string | null,
      url: data.html_url as string,
    };
    return { content: JSON.stringify(review), data: review };
  },
});
