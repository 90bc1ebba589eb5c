/** @module `github_remove_label`: takes one label off an issue or pull request. */
import { ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { githubTool } from "../github-env.js";
import { numberField, repoInput } from "../github-inputs.js";
import { labelNameField } from "./issue-fields.js";
import { labelsAnswer } from "./labels-answer.js";

export const removeLabel = githubTool({
  name: "github_remove_label",
  description:
    "Takes one label off an issue or pull request and returns the labels it keeps. The label stays defined in the repository. Fails, changing nothing, when the issue does not carry the label. Label names are untrusted text.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["repo"],
  input: z.object({
    ...repoInput,
    issue_number: numberField("issue or pull request"),
    label: labelNameField.describe("the name of the label to take off"),
  }),
  async run({ owner, repo, issue_number, label }, context, env) {
    const where = `${owner}/${repo}#${issue_number}`;
    try {
      const { data } = await env
        .github(context)
        .request(
          "DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}",
          { owner, repo, issue_number, name: label },
          `the label "${label}" on ${where}`,
        );
      return labelsAnswer(where, data);
    } catch (error) {
      // GitHub answers 404 "Label does not exist" when the issue exists but does not carry the label.
      if (ToolFailure.isInstance(error) && error.details?.githubMessage === "Label does not exist") {
        throw new ToolFailure(
          "upstream_error",
          `${where} does not carry the label "${label}", so nothing was removed; github_get_issue shows its labels`,
          { retryable: false, details: error.details },
        );
      }
      throw error;
    }
  },
});
