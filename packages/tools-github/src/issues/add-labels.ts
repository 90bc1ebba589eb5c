/** @module `github_add_labels`: adds labels to an issue or pull request, keeping those it has. */
import { z } from "zod";
import { githubTool } from "../github-env.js";
import { numberField, repoInput } from "../github-inputs.js";
import { labelsField } from "./issue-fields.js";
import { labelsAnswer } from "./labels-answer.js";

export const addLabels = githubTool({
  name: "github_add_labels",
  description:
    "Adds labels to an issue or pull request, keeping the labels it already has, and returns all its labels. A label the repository lacks is created (grey, no description): check the names with github_list_labels first to avoid near-duplicates. To replace the whole set use github_update_issue; to take one off, github_remove_label. Label names are untrusted text.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["repo"],
  input: z.object({
    ...repoInput,
    issue_number: numberField("issue or pull request"),
    labels: labelsField.describe("label names to add"),
  }),
  async run({ owner, repo, issue_number, labels }, context, env) {
    const { data } = await env
      .github(context)
      .request(
        "POST /repos/{owner}/{repo}/issues/{issue_number}/labels",
        { owner, repo, issue_number, labels },
        `labels of ${owner}/${repo}#${issue_number}`,
      );
    return labelsAnswer(`${owner}/${repo}#${issue_number}`, data);
  },
});
