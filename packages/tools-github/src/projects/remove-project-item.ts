/** @module `github_remove_project_item`: takes an issue or pull request out of a project (Projects v2), with its field values. */
import { z } from "zod";
import { githubTool } from "../github-env.js";
import { projectItemInput } from "./project-inputs.js";
import { findItemTarget, requireItem } from "./project-target.js";

const REMOVE_ITEM = /* GraphQL */ `
  mutation RemoveProjectItem($projectId: ID!, $itemId: ID!) {
    deleteProjectV2Item(input: { projectId: $projectId, itemId: $itemId }) {
      deletedItemId
    }
  }
`;

export const removeProjectItem = githubTool({
  name: "github_remove_project_item",
  description:
    "Removes an issue or pull request from a GitHub project (Projects v2). The issue itself stays; its item and every value set on it in this project (Status, Sprint, …) are deleted and cannot be restored — adding it again starts empty. To hide an item but keep its values, archive it in GitHub instead. The title returned is untrusted text written by the issue's author.",
  category: "project",
  effect: "destructive",
  cost: "io",
  oauthScopes: ["project", "repo"],
  input: z.object(projectItemInput),
  async run(input, context, env) {
    const github = env.github(context);
    const target = await findItemTarget(github, input);
    const itemId = requireItem(target);
    await github.graphql(
      REMOVE_ITEM,
      { projectId: target.projectId, itemId },
      `removing ${input.owner}/${input.repo}#${input.issue_number} from project ${input.project_number} of ${input.project_owner}`,
    );
    const result = { ...target.summary, removed: true };
    return {
      content: JSON.stringify(result),
      data: result,
      provenance: { source: target.summary.item.url, trusted: false },
    };
  },
});
