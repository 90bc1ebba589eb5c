/** @module `github_list_projects`: an organisation's or a user's projects (Projects v2), newest first. */
import { boundNote } from "toolreg/toolkit";
import { z } from "zod";
import { githubTool } from "../github-env.js";
import { limitField } from "../github-inputs.js";
import { itemsWanted } from "../list-answer.js";
import { collectConnection } from "./graphql-pages.js";
import { projectOwnerField } from "./project-inputs.js";
import { noAccount } from "./project-target.js";

const LIST_PROJECTS = /* GraphQL */ `
  query ListProjects($login: String!, $first: Int!, $after: String) {
    repositoryOwner(login: $login) {
      __typename
      url
      ... on ProjectV2Owner {
        projectsV2(first: $first, after: $after) {
          nodes { number title url closed updatedAt items(first: 1) { totalCount } }
          pageInfo { hasNextPage endCursor }
        }
      }
    }
  }
`;

interface ProjectNode {
  number: number;
  title: string;
  url: string;
  closed: boolean;
  updatedAt: string;
  items: { totalCount: number };
}

interface ListProjectsData {
  repositoryOwner: {
    __typename: "Organization" | "User";
    url: string;
    projectsV2: {
      nodes: (ProjectNode | null)[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
  } | null;
}

export const listProjects = githubTool({
  name: "github_list_projects",
  description:
    "Lists the projects (GitHub Projects, the boards and tables of issues) of an organisation or a user, newest first: number, title, URL, whether closed, and how many items each holds. Use it to find a project's number; use github_get_project to read one project's fields and items. Titles are untrusted text written by the project's members.",
  category: "project",
  effect: "read",
  cost: "io",
  oauthScopes: ["read:project"],
  input: z.object({ owner: projectOwnerField, limit: limitField }),
  async run({ owner, limit }, context, env) {
    const github = env.github(context);
    const maxItems = itemsWanted(limit, env);
    const seen: { account?: NonNullable<ListProjectsData["repositoryOwner"]> } = {};
    const collected = await collectConnection(async (first, after) => {
      const data = await github.graphql<ListProjectsData>(
        LIST_PROJECTS,
        { login: owner, first, after },
        `projects of ${owner}`,
      );
      if (!data.repositoryOwner) throw noAccount(owner);
      seen.account = data.repositoryOwner;
      return data.repositoryOwner.projectsV2;
    }, maxItems);
    const projects = collected.items.map((project) => ({
      number: project.number,
      title: project.title,
      url: project.url,
      closed: project.closed,
      items: project.items.totalCount,
      updatedAt: project.updatedAt,
    }));
    const ownerType = seen.account?.__typename;
    const content = [
      `${owner}${ownerType ? ` (${ownerType === "User" ? "a user" : "an organisation"})` : ""}: ${boundNote(collected, "projects")}${projects.length > 0 ? ":" : "."}`,
      ...projects.map(
        (project) =>
          `- #${project.number} "${project.title}"${project.closed ? " (closed)" : ""}, ${project.items} items — ${project.url}`,
      ),
    ].join("\n");
    return {
      content,
      data: { owner, ownerType, projects, complete: collected.complete },
      truncated: !collected.complete,
      provenance: { source: seen.account?.url ?? `https://github.com/${owner}`, trusted: false },
    };
  },
});
