/**
 * @module The node ids behind a project item, looked up in one query from what a model knows: the project
 * (owner and number) with its fields, and the issue or pull request (owner, repository, number) with the
 * project items that hold it. GitHub finds an issue's items in any project of the same owner without the
 * repository being linked, so the item is found from the issue's side.
 */
import { ToolFailure } from "toolreg/toolkit";
import type { GithubCall } from "../github-client.js";
import { PROJECT_FIELD_PARTS } from "./project-documents.js";
import type { ProjectItemInput } from "./project-inputs.js";
import type { FieldNode } from "./project-shapes.js";

/** How many of an issue's project items are searched for the project's (GitHub's largest page). */
const ITEMS_SEARCHED = 100;

const CONTENT_PARTS = /* GraphQL */ `
  id number title url repository { nameWithOwner }
  projectItems(first: ${ITEMS_SEARCHED}) { nodes { id project { id } } pageInfo { hasNextPage } }
`;

const ITEM_TARGET = /* GraphQL */ `
  query ProjectItemTarget(
    $projectOwner: String!
    $projectNumber: Int!
    $owner: String!
    $repo: String!
    $number: Int!
  ) {
    repositoryOwner(login: $projectOwner) {
      ... on ProjectV2Owner {
        projectV2(number: $projectNumber) {
          id number title url
          fields(first: 100) { nodes { ...ProjectFieldParts } }
        }
      }
    }
    repository(owner: $owner, name: $repo) {
      issueOrPullRequest(number: $number) {
        __typename
        ... on Issue { ${CONTENT_PARTS} }
        ... on PullRequest { ${CONTENT_PARTS} }
      }
    }
  }
  ${PROJECT_FIELD_PARTS}
`;

interface TargetData {
  repositoryOwner: {
    projectV2?: {
      id: string;
      number: number;
      title: string;
      url: string;
      fields: { nodes: (FieldNode | null)[] };
    };
  } | null;
  repository: {
    issueOrPullRequest: {
      __typename: "Issue" | "PullRequest";
      id: string;
      number: number;
      title: string;
      url: string;
      repository: { nameWithOwner: string };
      projectItems: {
        nodes: ({ id: string; project: { id: string } } | null)[];
        pageInfo: { hasNextPage: boolean };
      };
    };
  };
}

export interface ItemTarget {
  projectId: string;
  contentId: string;
  fields: FieldNode[];
  /** The item holding the issue in this project, when it is in it. */
  itemId: string | undefined;
  /** The issue is in more projects than were searched, and this one was not among them. */
  searchedPart: boolean;
  /** What the tools return: no node ids, the names a model used. */
  summary: {
    project: { owner: string; number: number; title: string; url: string };
    item: { type: "ISSUE" | "PULL_REQUEST"; number: number; title: string; repository: string; url: string };
  };
}

export async function findItemTarget(github: GithubCall, input: ProjectItemInput): Promise<ItemTarget> {
  const { project_owner, project_number, owner, repo, issue_number } = input;
  const data = await github.graphql<TargetData>(
    ITEM_TARGET,
    { projectOwner: project_owner, projectNumber: project_number, owner, repo, number: issue_number },
    `project ${project_number} of ${project_owner} or ${owner}/${repo}#${issue_number}`,
  );
  const project = data.repositoryOwner?.projectV2;
  if (!project) throw noAccount(project_owner);
  const content = data.repository.issueOrPullRequest;
  const item = content.projectItems.nodes.find((node) => node?.project.id === project.id);
  return {
    projectId: project.id,
    contentId: content.id,
    fields: project.fields.nodes.filter((field): field is FieldNode => field !== null),
    itemId: item?.id,
    searchedPart: item === undefined && content.projectItems.pageInfo.hasNextPage,
    summary: {
      project: { owner: project_owner, number: project.number, title: project.title, url: project.url },
      item: {
        type: content.__typename === "Issue" ? "ISSUE" : "PULL_REQUEST",
        number: content.number,
        title: content.title,
        repository: content.repository.nameWithOwner,
        url: content.url,
      },
    },
  };
}

/** The item of an issue that must be in the project, or a refusal that says what to do instead. */
export function requireItem(target: ItemTarget): string {
  if (target.itemId) return target.itemId;
  const { project, item } = target.summary;
  const which = `${item.repository}#${item.number}`;
  throw new ToolFailure(
    "invalid_input",
    target.searchedPart
      ? `${which} is in more than ${ITEMS_SEARCHED} projects and project ${project.number} of ${project.owner} is not among the first ${ITEMS_SEARCHED}; change it in GitHub's web interface`
      : `${which} is not an item of project ${project.number} of ${project.owner} ("${project.title}"); add it first with github_add_project_item`,
    { retryable: false, details: { project: project.url, item: item.url } },
  );
}

/** `repositoryOwner` is null, without an error, for a login GitHub does not know. */
export function noAccount(login: string): ToolFailure {
  return new ToolFailure(
    "upstream_error",
    `GitHub has no account ${login}, or this credential cannot see it; check the login of the organisation or user that owns the project`,
    { retryable: false, details: { login } },
  );
}
