/** @module `github_comment`: posts a comment on an issue or a pull request's conversation. */
import { z } from "zod";
import { githubTool } from "../github-env.js";
import { numberField, repoInput } from "../github-inputs.js";
import { textField } from "./issue-fields.js";

export const comment = githubTool({
  name: "github_comment",
  description:
    "Posts a comment on an issue or on a pull request's conversation (GitHub counts every pull request as an issue, so the number is either). Returns the comment's id and link. For a review comment on a line of a pull request's diff, use the pull request review tools. The comment notifies the issue's participants and watchers.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["repo"],
  input: z.object({
    ...repoInput,
    issue_number: numberField("issue or pull request"),
    body: textField("the comment").min(1),
  }),
  async run({ owner, repo, issue_number, body }, context, env) {
    const { data } = await env
      .github(context)
      .request(
        "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
        { owner, repo, issue_number, body },
        `a comment on ${owner}/${repo}#${issue_number}`,
      );
    const posted = {
      id: data.id as number,
      issueNumber: issue_number,
      author: (data.user?.login ?? null) as string | null,
      createdAt: data.created_at as string,
      url: data.html_url as string,
    };
    return { content: `Commented on ${owner}/${repo}#${issue_number}: ${posted.url}`, data: posted };
  },
});
