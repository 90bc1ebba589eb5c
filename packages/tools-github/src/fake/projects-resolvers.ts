/**
 * @module Root resolvers for the fake's GraphQL endpoint over a ProjectsWorld: the Query fields the project
 * tools reach (repositoryOwner, organization, user, repository, node) and the four Projects v2 mutations,
 * each answering a refusal injected with `failNextField` first.
 *
 * Reproduced behaviour, from GitHub's documentation and captured responses:
 * - an unknown login for `repositoryOwner` is `null` with no error
 *   (https://docs.github.com/en/graphql/reference/queries#repositoryowner); for `organization`, `user`,
 *   `repository` and `node` it is a NOT_FOUND error naming what did not resolve;
 * - adding an item that is already in the project returns the existing item
 *   (https://docs.github.com/en/issues/planning-and-tracking-with-projects/automating-your-project/using-the-api-to-manage-projects#adding-an-item-to-a-project);
 * - updateProjectV2ItemFieldValue refuses a value of the wrong kind, an option or iteration of another
 *   field, and an item of another project, with VALIDATION errors worded as GitHub words them.
 */
import { githubError, projectsNodes } from "./projects-nodes.js";
import {
  addProject,
  type FakeAccount,
  type FakeField,
  type FakeProject,
  type FakeRepository,
  type FakeValue,
  type ProjectsWorld,
} from "./projects-world.js";

/** The root value for graphql-js: Query and Mutation fields side by side, each answering an injected failure first. */
export function projectsRoot(world: ProjectsWorld): Record<string, unknown> {
  const fields = rootFields(world);
  return Object.fromEntries(
    Object.entries(fields).map(([name, resolve]) => [
      name,
      (args: never) => {
        const index = world.failures.findIndex((failure) => failure.field === name);
        if (index < 0) return resolve(args);
        const [failure] = world.failures.splice(index, 1) as [ProjectsWorld["failures"][number]];
        throw githubError(failure.type, failure.message);
      },
    ]),
  );
}

function rootFields(world: ProjectsWorld): Record<string, (args: never) => unknown> {
  const { account, repository, project, item, nodeById } = projectsNodes(world);
  const stamp = { createdAt: world.now(), updatedAt: world.now() };

  const projectById = (id: string) => {
    const found = world.projects.find((p) => p.id === id);
    if (!found) throw githubError("NOT_FOUND", `Could not resolve to a node with the global id of '${id}'`);
    return found;
  };

  const itemIn = (owner: FakeProject, id: string) => {
    const found = owner.items.find((candidate) => candidate.id === id);
    if (found) return found;
    if (world.projects.some((p) => p.items.some((candidate) => candidate.id === id))) {
      throw githubError("VALIDATION", "The item does not exist in the project");
    }
    throw githubError("NOT_FOUND", `Could not resolve to a node with the global id of '${id}'`);
  };

  const byLogin = (kind: FakeAccount["kind"], login: string, article: string) => {
    const found = world.accounts.find(
      (a) => a.kind === kind && a.login.toLowerCase() === login.toLowerCase(),
    );
    if (!found) {
      throw githubError("NOT_FOUND", `Could not resolve to ${article} ${kind} with the login of '${login}'.`);
    }
    return account(found);
  };

  return {
    repositoryOwner: ({ login }: { login: string }) => {
      const found = world.accounts.find((a) => a.login.toLowerCase() === login.toLowerCase());
      return found ? account(found) : null;
    },
    organization: ({ login }: { login: string }) => byLogin("Organization", login, "an"),
    user: ({ login }: { login: string }) => byLogin("User", login, "a"),
    repository: ({ owner, name }: { owner: string; name: string }) => {
      const found = world.repositories.find(
        (r) =>
          r.owner.login.toLowerCase() === owner.toLowerCase() && r.name.toLowerCase() === name.toLowerCase(),
      );
      if (!found)
        throw githubError("NOT_FOUND", `Could not resolve to a Repository with the name '${owner}/${name}'.`);
      return repository(found);
    },
    node: ({ id }: { id: string }) => nodeById(id),

    createProjectV2: ({
      input,
    }: {
      input: {
        ownerId: string;
        title: string;
        repositoryId?: string | null;
        clientMutationId?: string | null;
      };
    }) => {
      const owner = world.accounts.find((a) => a.id === input.ownerId);
      if (!owner)
        throw githubError(
          "NOT_FOUND",
          `Could not resolve to a node with the global id of '${input.ownerId}'`,
        );
      let repo: FakeRepository | undefined;
      if (input.repositoryId) {
        repo = world.repositories.find((r) => r.id === input.repositoryId);
        if (!repo) {
          throw githubError(
            "NOT_FOUND",
            `Could not resolve to a node with the global id of '${input.repositoryId}'`,
          );
        }
      }
      const made = addProject(world, owner, input.title, repo);
      return { clientMutationId: input.clientMutationId ?? null, projectV2: project(made) };
    },

    addProjectV2ItemById: ({
      input,
    }: {
      input: { projectId: string; contentId: string; clientMutationId?: string | null };
    }) => {
      const target = projectById(input.projectId);
      const found = world.contents.find((c) => c.id === input.contentId);
      if (!found) {
        throw githubError(
          "NOT_FOUND",
          `Could not resolve to a node with the global id of '${input.contentId}'`,
        );
      }
      let existing = target.items.find((candidate) => candidate.content === found);
      if (!existing) {
        existing = { id: world.mint("PVTI"), content: found, values: new Map(), isArchived: false, ...stamp };
        target.items.push(existing);
      }
      return { clientMutationId: input.clientMutationId ?? null, item: item(target, existing) };
    },

    updateProjectV2ItemFieldValue: ({
      input,
    }: {
      input: {
        projectId: string;
        itemId: string;
        fieldId: string;
        value: Record<string, unknown>;
        clientMutationId?: string | null;
      };
    }) => {
      const target = projectById(input.projectId);
      const found = itemIn(target, input.itemId);
      const chosen = target.fields.find((candidate) => candidate.id === input.fieldId);
      if (!chosen)
        throw githubError(
          "NOT_FOUND",
          `Could not resolve to a node with the global id of '${input.fieldId}'`,
        );
      found.values.set(chosen.id, valueFor(chosen, input.value));
      found.updatedAt = world.now();
      return { clientMutationId: input.clientMutationId ?? null, projectV2Item: item(target, found) };
    },

    deleteProjectV2Item: ({
      input,
    }: {
      input: { projectId: string; itemId: string; clientMutationId?: string | null };
    }) => {
      const target = projectById(input.projectId);
      const found = itemIn(target, input.itemId);
      target.items = target.items.filter((candidate) => candidate !== found);
      return { clientMutationId: input.clientMutationId ?? null, deletedItemId: found.id };
    },
  };
}

/** The stored value for `field` from a ProjectV2FieldValue input, or GitHub's VALIDATION refusal. */
function valueFor(field: FakeField, value: Record<string, unknown>): FakeValue {
  const kind = field.dataType.toLowerCase();
  const missing = (what: string) =>
    githubError("VALIDATION", `Did not receive ${what} to update a field of type ${kind}`);
  switch (field.dataType) {
    case "TEXT":
      if (typeof value.text !== "string") throw missing("a text value");
      return { text: value.text };
    case "NUMBER":
      if (typeof value.number !== "number") throw missing("a number value");
      return { number: value.number };
    case "DATE":
      if (typeof value.date !== "string") throw missing("a date value");
      return { date: value.date };
    case "SINGLE_SELECT": {
      const id = value.singleSelectOptionId;
      if (typeof id !== "string") throw missing("a single select option Id");
      if (!field.options?.some((option) => option.id === id)) {
        throw githubError("VALIDATION", "The single select option Id does not belong to the field");
      }
      return { optionId: id };
    }
    case "ITERATION": {
      const id = value.iterationId;
      if (typeof id !== "string") throw missing("an iteration Id");
      const all = [...(field.iterations?.active ?? []), ...(field.iterations?.completed ?? [])];
      if (!all.some((iteration) => iteration.id === id)) {
        throw githubError("VALIDATION", "The iteration Id does not belong to the field");
      }
      return { iterationId: id };
    }
    default:
      throw githubError("VALIDATION", `Field of type ${kind} cannot be updated with this mutation`);
  }
}
