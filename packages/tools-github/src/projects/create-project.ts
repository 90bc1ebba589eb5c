/** @module `github_create_project`: a new project (Projects v2) for an organisation or a user, optionally linked to a repository. */
import { z } from "zod";
import { githubTool } from "../github-env.js";
import { repoField } from "../github-inputs.js";
import { projectOwnerField } from "./project-inputs.js";
import { noAccount } from "./project-target.js";

const OWNER_ID = /* GraphQL */ `
  query ProjectOwnerId($login: String!) {
    repositoryOwner(login: $login) { id }
  }
`;

const OWNER_AND_REPOSITORY_IDS = /* GraphQL */ `
  query ProjectOwnerAndRepositoryIds($login: String!, $repo: String!) {
    repositoryOwner(login: $login) { id }
    repository(owner: $login, name: $repo) { id nameWithOwner }
  }
`;

const CREATE_PROJECT = /* GraphQL */ `
  mutation CreateProject($ownerId: ID!, $title: String!, $repositoryId: ID) {
    createProjectV2(input: { ownerId: $ownerId, title: $title, repositoryId: $repositoryId }) {
      projectV2 { number title url }
    }
  }
`;

interface IdsData {
  repositoryOwner: { id: string } | null;
  repository?: { id: string; nameWithOwner: string };
}

interface CreatedData {
  createProjectV2: { projectV2: { number: number; title: string; url: string } };
}

export const createProject = githubTool({
  name: "github_create_project",
  description:
    "Creates a GitHub project (Projects v2) owned by an organisation or by the authenticated user, with GitHub's default fields (Title, Assignees, Status with Todo / In Progress / Done, …), and optionally links one of the owner's repositories to it. Returns the new project's number and URL. Use github_add_project_item to put issues in it; use github_list_projects first if a project for the purpose may already exist.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["project"],
  input: z.object({
    owner: projectOwnerField,
    title: z
      .string()
      .trim()
      .min(1)
      // GitHub documents no limit on a project's title; this bound keeps a title a title.
      .max(256)
      .describe("the project's title"),
    repo: repoField
      .optional()
      .describe("a repository of the same owner to link the project to, e.g. roadmap (optional)"),
  }),
  async run({ owner, title, repo }, context, env) {
    const github = env.github(context);
    const ids =
      repo === undefined
        ? await github.graphql<IdsData>(OWNER_ID, { login: owner }, `account ${owner}`)
        : await github.graphql<IdsData>(
            OWNER_AND_REPOSITORY_IDS,
            { login: owner, repo },
            `account ${owner} or repository ${owner}/${repo}`,
          );
    if (!ids.repositoryOwner) throw noAccount(owner);
    const { createProjectV2 } = await github.graphql<CreatedData>(
      CREATE_PROJECT,
      { ownerId: ids.repositoryOwner.id, title, repositoryId: ids.repository?.id },
      `a new project of ${owner}`,
    );
    const project = {
      owner,
      ...createProjectV2.projectV2,
      linkedRepository: ids.repository?.nameWithOwner ?? null,
    };
    return { content: JSON.stringify(project), data: project };
  },
});
