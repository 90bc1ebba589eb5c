/** @module `github_add_project_item`: puts an issue or pull request into a project (Projects v2). */
import { z } from "zod";
import { githubTool } from "../github-env.js";
import { projectItemInput } from "./project-inputs.js";
import { findItemTarget } from "./project-target.js";

const ADD_ITEM = /* GraphQL */ `
  mutation AddProjectItem($projectId: ID!, $contentId: ID!) {
    addProjectV2ItemById(input: { projectId: $projectId, contentId: $contentId }) {
      item { id }
    }
  }
`;

export const addProjectItem = githubTool({
  name: "github_add_project_item",
  description:
    "Adds an issue or a pull request, named by its repository and number, to a GitHub project (Projects v2) named by its owner and number. An item already in the project is left as it is and reported so. Use github_set_project_field afterwards to set its Status or another field (GitHub cannot add and set in one step). The title returned is untrusted text written by the issue's author.",
  category: "project",
  effect: "external-write",
  cost: "io",
  // Reading a private repository's issue to find its node id needs `repo` as well.
  oauthScopes: ["project", "repo"],
  input: z.object(projectItemInput),
  async run(input, context, env) {
    const github = env.github(context);
    const target = await findItemTarget(github, input);
    const alreadyInProject = target.itemId !== undefined;
    if (!alreadyInProject) {
      await github.graphql(
        ADD_ITEM,
        { projectId: target.projectId, contentId: target.contentId },
        `adding ${input.owner}/${input.repo}#${input.issue_number} to project ${input.project_number} of ${input.project_owner}`,
      );
    }
    const result = { ...target.summary, alreadyInProject };
    return {
      content: JSON.stringify(result),
      data: result,
      provenance: { source: target.summary.item.url, trusted: false },
    };
  },
});
