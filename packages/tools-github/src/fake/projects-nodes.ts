/**
 * @module The fake's world read as GitHub's GraphQL types: each builder answers an account, repository,
 * issue, pull request, project, field, item or field value with the fields GitHub's schema gives its type,
 * resolving connections lazily. graphql-js checks every answer against that schema, so a field left out
 * here fails the query instead of being invented.
 *
 * Reproduced from GitHub's documentation and captured responses: an unknown project number or issue
 * number is `null` beside a NOT_FOUND error naming it; connections page by opaque cursors with `pageInfo`,
 * `projectsV2` newest first (its default orderBy: NUMBER DESC), items and fields by position; an item's
 * field values begin with its Title's (https://docs.github.com/en/issues/planning-and-tracking-with-projects/automating-your-project/using-the-api-to-manage-projects#finding-information-about-items-in-a-project).
 */
import { GraphQLError } from "graphql";
import type {
  FakeAccount,
  FakeContent,
  FakeField,
  FakeItem,
  FakeProject,
  FakeRepository,
  FakeValue,
  ProjectsWorld,
} from "./projects-world.js";

interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/** GitHub's errors carry a `type`; graphql-routes.ts moves it from `extensions` to where GitHub puts it. */
export function githubError(type: string, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { type } });
}

const cursorOf = (index: number) => Buffer.from(`cursor:v2:${index}`).toString("base64");
const indexOf = (cursor: string) =>
  Number(Buffer.from(cursor, "base64").toString().replace("cursor:v2:", ""));

/** A Relay connection over `all`, as GitHub pages one. */
function connection<T>(all: readonly T[], args: PageArgs, node: (value: T) => unknown) {
  let start = args.after ? indexOf(args.after) + 1 : 0;
  let end = args.before ? indexOf(args.before) : all.length;
  if (typeof args.first === "number") end = Math.min(end, start + args.first);
  if (typeof args.last === "number") start = Math.max(start, end - args.last);
  const window = all.slice(start, end).map((value, offset) => ({ value, index: start + offset }));
  return {
    totalCount: all.length,
    nodes: window.map(({ value }) => node(value)),
    edges: window.map(({ value, index }) => ({ cursor: cursorOf(index), node: node(value) })),
    pageInfo: {
      hasNextPage: end < all.length,
      hasPreviousPage: start > 0,
      startCursor: window.length > 0 ? cursorOf(start) : null,
      endCursor: window.length > 0 ? cursorOf(end - 1) : null,
    },
  };
}

const projectUrl = (project: FakeProject) =>
  `https://github.com/${project.owner.kind === "Organization" ? "orgs" : "users"}/${project.owner.login}/projects/${project.number}`;

const FIELD_TYPENAME: Partial<Record<FakeField["dataType"], string>> = {
  SINGLE_SELECT: "ProjectV2SingleSelectField",
  ITERATION: "ProjectV2IterationField",
};

/** Builders of GitHub's objects over `world`, and `nodeById` for the `node(id:)` lookups GitHub offers. */
export function projectsNodes(world: ProjectsWorld) {
  const stamp = { createdAt: world.now(), updatedAt: world.now() };

  const account = (owner: FakeAccount) => ({
    __typename: owner.kind,
    id: owner.id,
    login: owner.login,
    url: `https://github.com/${owner.login}`,
    resourcePath: `/${owner.login}`,
    projectV2: ({ number }: { number: number }) => {
      const found = world.projects.find((p) => p.owner === owner && p.number === number);
      if (!found)
        throw githubError("NOT_FOUND", `Could not resolve to a ProjectV2 with the number ${number}.`);
      return project(found);
    },
    projectsV2: (args: PageArgs) =>
      connection(
        world.projects.filter((p) => p.owner === owner).sort((a, b) => b.number - a.number),
        args,
        project,
      ),
    repository: ({ name }: { name: string }) => {
      const found = world.repositories.find((r) => r.owner === owner && r.name === name);
      return found ? repository(found) : null;
    },
  });

  const repository = (repo: FakeRepository) => ({
    __typename: "Repository",
    id: repo.id,
    name: repo.name,
    nameWithOwner: `${repo.owner.login}/${repo.name}`,
    url: `https://github.com/${repo.owner.login}/${repo.name}`,
    resourcePath: `/${repo.owner.login}/${repo.name}`,
    owner: () => account(repo.owner),
    issueOrPullRequest: ({ number }: { number: number }) => {
      const found = world.contents.find((c) => c.repository === repo && c.number === number);
      if (!found) {
        throw githubError(
          "NOT_FOUND",
          `Could not resolve to an issue or pull request with the number of ${number}.`,
        );
      }
      return content(found);
    },
  });

  const content = (found: FakeContent) => {
    const path = `/${found.repository.owner.login}/${found.repository.name}/${found.kind === "Issue" ? "issues" : "pull"}/${found.number}`;
    return {
      __typename: found.kind,
      id: found.id,
      number: found.number,
      title: found.title,
      state: found.state,
      closed: found.state !== "OPEN",
      url: `https://github.com${path}`,
      resourcePath: path,
      ...stamp,
      repository: () => repository(found.repository),
      projectItems: (args: PageArgs & { includeArchived?: boolean }) =>
        connection(
          world.projects.flatMap((p) =>
            p.items
              .filter((i) => i.content === found && (args.includeArchived !== false || !i.isArchived))
              .map((i) => ({ project: p, item: i })),
          ),
          args,
          ({ project: p, item: i }) => item(p, i),
        ),
    };
  };

  const field = (owner: FakeProject, found: FakeField) => ({
    __typename: FIELD_TYPENAME[found.dataType] ?? "ProjectV2Field",
    id: found.id,
    name: found.name,
    dataType: found.dataType,
    databaseId: null,
    ...stamp,
    project: () => project(owner),
    options: ({ names }: { names?: string[] | null }) =>
      (found.options ?? [])
        .filter((option) => !names || names.includes(option.name))
        .map((option) => ({ ...option, nameHTML: option.name, descriptionHTML: option.description })),
    configuration: found.iterations && {
      duration: 14,
      startDay: 1,
      iterations: found.iterations.active.map(iteration),
      completedIterations: found.iterations.completed.map(iteration),
    },
  });

  const iteration = (found: { id: string; title: string; startDate: string; duration: number }) => ({
    ...found,
    titleHTML: found.title,
  });

  const fieldValue = (owner: FakeProject, found: FakeItem, fieldId: string, value: FakeValue) => {
    const target = owner.fields.find((candidate) => candidate.id === fieldId) as FakeField;
    const common = {
      id: `${found.id}_${fieldId}`,
      databaseId: null,
      creator: null,
      ...stamp,
      field: () => field(owner, target),
      item: () => item(owner, found),
    };
    if ("text" in value) return { __typename: "ProjectV2ItemFieldTextValue", ...common, text: value.text };
    if ("number" in value)
      return { __typename: "ProjectV2ItemFieldNumberValue", ...common, number: value.number };
    if ("date" in value) return { __typename: "ProjectV2ItemFieldDateValue", ...common, date: value.date };
    if ("optionId" in value) {
      const option = target.options?.find((candidate) => candidate.id === value.optionId);
      return {
        __typename: "ProjectV2ItemFieldSingleSelectValue",
        ...common,
        optionId: value.optionId,
        name: option?.name ?? null,
        nameHTML: option?.name ?? null,
        color: option?.color ?? "GRAY",
        description: option?.description ?? null,
        descriptionHTML: option?.description ?? null,
      };
    }
    const all = [...(target.iterations?.active ?? []), ...(target.iterations?.completed ?? [])];
    const chosen = all.find((candidate) => candidate.id === value.iterationId);
    return {
      __typename: "ProjectV2ItemFieldIterationValue",
      ...common,
      iterationId: value.iterationId,
      title: chosen?.title,
      titleHTML: chosen?.title,
      startDate: chosen?.startDate,
      duration: chosen?.duration,
    };
  };

  const item = (owner: FakeProject, found: FakeItem) => {
    const kind =
      found.content === "redacted"
        ? "REDACTED"
        : "draftTitle" in found.content
          ? "DRAFT_ISSUE"
          : found.content.kind === "Issue"
            ? "ISSUE"
            : "PULL_REQUEST";
    const values = (): [string, FakeValue][] => {
      // GitHub lists the Title field's value first for every item it can show.
      const title =
        found.content === "redacted"
          ? []
          : ([
              [
                owner.fields.find((f) => f.dataType === "TITLE")?.id as string,
                { text: "draftTitle" in found.content ? found.content.draftTitle : found.content.title },
              ],
            ] as [string, FakeValue][]);
      return [...title, ...found.values];
    };
    return {
      __typename: "ProjectV2Item",
      id: found.id,
      type: kind,
      isArchived: found.isArchived,
      databaseId: null,
      fullDatabaseId: null,
      creator: null,
      createdAt: found.createdAt,
      updatedAt: found.updatedAt,
      project: () => project(owner),
      content: () => {
        if (found.content === "redacted") return null;
        if ("draftTitle" in found.content) {
          return {
            __typename: "DraftIssue",
            id: `DI_${found.id}`,
            title: found.content.draftTitle,
            body: "",
          };
        }
        return content(found.content);
      },
      fieldValues: (args: PageArgs) =>
        connection(values(), args, ([fieldId, value]) => fieldValue(owner, found, fieldId, value)),
    };
  };

  const project = (found: FakeProject) => ({
    __typename: "ProjectV2",
    id: found.id,
    number: found.number,
    title: found.title,
    shortDescription: found.shortDescription,
    readme: null,
    public: false,
    closed: found.closed,
    closedAt: found.closed ? found.updatedAt : null,
    template: false,
    createdAt: found.createdAt,
    updatedAt: found.updatedAt,
    url: projectUrl(found),
    resourcePath: new URL(projectUrl(found)).pathname,
    viewerCanUpdate: true,
    viewerCanClose: !found.closed,
    viewerCanReopen: found.closed,
    owner: () => account(found.owner),
    fields: (args: PageArgs) => connection(found.fields, args, (f) => field(found, f)),
    field: ({ name }: { name: string }) => {
      const named = found.fields.find((f) => f.name === name);
      return named ? field(found, named) : null;
    },
    items: (args: PageArgs) => connection(found.items, args, (i) => item(found, i)),
    repositories: (args: PageArgs) => connection(found.repositories, args, repository),
  });

  const nodeById = (id: string) => {
    const owner = world.accounts.find((a) => a.id === id);
    if (owner) return account(owner);
    const found = world.projects.find((p) => p.id === id);
    if (found) return project(found);
    const contentFound = world.contents.find((c) => c.id === id);
    if (contentFound) return content(contentFound);
    const repo = world.repositories.find((r) => r.id === id);
    if (repo) return repository(repo);
    for (const p of world.projects) {
      const i = p.items.find((candidate) => candidate.id === id);
      if (i) return item(p, i);
    }
    throw githubError("NOT_FOUND", `Could not resolve to a node with the global id of '${id}'`);
  };

  return { account, repository, content, project, item, nodeById };
}

export type ProjectsNodes = ReturnType<typeof projectsNodes>;
