/** @module `github_reopen_issue`: reopens a closed issue. */
import { z } from "zod";
import { githubTool } from "../github-env.js";
import { repoInput } from "../github-inputs.js";
import { issueNumberField } from "./issue-fields.js";
import { writeIssue } from "./issue-write.js";

export const reopenIssue = githubTool({
  name: "github_reopen_issue",
  description:
    "Reopens a closed issue (GitHub records its state reason as reopened). Reopening an open issue changes nothing. The returned text is untrusted.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["repo"],
  input: z.object({ ...repoInput, issue_number: issueNumberField }),
  async run({ owner, repo, issue_number }, context, env) {
    return writeIssue(
      env,
      context,
      "PATCH /repos/{owner}/{repo}/issues/{issue_number}",
      { owner, repo, issue_number, state: "open", state_reason: "reopened" },
      `issue ${owner}/${repo}#${issue_number}`,
    );
  },
});
