import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubFake, startGithubFake } from "./github-fake.js";
import { graphqlOperations, graphqlRoutes } from "./graphql-routes.js";
import { type ProjectsWorld, seedProjectsWorld } from "./projects-world.js";

let fake: GithubFake;
let world: ProjectsWorld;
beforeAll(async () => {
  world = seedProjectsWorld();
  fake = await startGithubFake({ routes: [graphqlRoutes(world)] });
});
afterAll(() => fake.close());

async function post(query: string, variables: Record<string, unknown> = {}, authorization = "Bearer t") {
  const response = await fetch(`${fake.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", "user-agent": "test", authorization },
    body: JSON.stringify({ query, variables }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: GraphQL answers, read field by field.
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

describe("the fake GraphQL endpoint", () => {
  it("executes a query against GitHub's schema and answers data with GitHub's rate-limit headers", async () => {
    const { status, headers, body } = await post(
      `query Board($login: String!) {
        repositoryOwner(login: $login) {
          ... on ProjectV2Owner { projectV2(number: 1) { title items(first: 1) { totalCount nodes { type } } } }
        }
      }`,
      { login: "octo-org" },
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      data: {
        repositoryOwner: {
          projectV2: { title: "Roadmap", items: { totalCount: 5, nodes: [{ type: "ISSUE" }] } },
        },
      },
    });
    expect(headers.get("x-ratelimit-resource")).toBe("graphql");
    expect(Number(headers.get("x-ratelimit-remaining"))).toBeLessThan(5000);
    expect(graphqlOperations(fake).at(-1)).toMatchObject({
      operation: "Board",
      kind: "query",
      variables: { login: "octo-org" },
    });
  });

  it("refuses a field GitHub's schema does not have, as GitHub does: 200, errors[] and no data", async () => {
    const { status, body } = await post(`{ repositoryOwner(login: "octo-org") { login boardCount } }`);
    expect(status).toBe(200);
    expect(body.data).toBeUndefined();
    expect(body.errors[0].message).toMatch(/Cannot query field "boardCount" on type "RepositoryOwner"/);
  });

  it("refuses a connection without first or last, and a page above 100, before running anything", async () => {
    const query = `{ repositoryOwner(login: "octo-org") { ... on ProjectV2Owner { projectsV2 { nodes { title } } } } }`;
    const unbounded = await post(query);
    expect(unbounded.body).toEqual({
      data: null,
      errors: [
        {
          locations: [{ line: 1, column: query.indexOf("projectsV2") + 1 }],
          message:
            "You must provide a `first` or `last` value to properly paginate the `projectsV2` connection.",
        },
      ],
    });
    const excessive = await post(
      `query($n: Int!) { repositoryOwner(login: "octo-org") { ... on ProjectV2Owner { projectsV2(first: $n) { nodes { title } } } } }`,
      { n: 101 },
    );
    expect(excessive.body.errors[0].message).toBe(
      "Requesting 101 records on the `projectsV2` connection exceeds the `first` limit of 100 records.",
    );
  });

  it("answers an unknown project number with null beside a NOT_FOUND error at its path", async () => {
    const query = `{ repositoryOwner(login: "octo-org") { ... on ProjectV2Owner { projectV2(number: 99) { title } } } }`;
    const { body } = await post(query);
    expect(body).toEqual({
      data: { repositoryOwner: { projectV2: null } },
      errors: [
        {
          type: "NOT_FOUND",
          path: ["repositoryOwner", "projectV2"],
          locations: [{ line: 1, column: query.indexOf("projectV2(") + 1 }],
          message: "Could not resolve to a ProjectV2 with the number 99.",
        },
      ],
    });
  });

  it("answers an unknown login with a null owner and no error", async () => {
    const { body } = await post(`{ repositoryOwner(login: "nobody-here") { login } }`);
    expect(body).toEqual({ data: { repositoryOwner: null } });
  });

  it("refuses Projects v2 fields to a token without read:project, and mutations without project, naming the scope", async () => {
    world.token.scopes = ["repo"];
    try {
      const read = await post(
        `{ repositoryOwner(login: "octo-org") { ... on ProjectV2Owner { projectV2(number: 1) { title } } } }`,
      );
      expect(read.body.data).toBeNull();
      expect(read.body.errors[0]).toMatchObject({ type: "INSUFFICIENT_SCOPES" });
      expect(read.body.errors[0].message).toContain(
        "The 'projectV2' field requires one of the following scopes: ['read:project'], but your token has only been granted the: ['repo'] scopes.",
      );
      world.token.scopes = ["repo", "read:project"];
      const write = await post(
        `mutation { deleteProjectV2Item(input: { projectId: "x", itemId: "y" }) { deletedItemId } }`,
      );
      expect(write.body.errors[0].message).toContain(
        "The 'deleteProjectV2Item' field requires one of the following scopes: ['project']",
      );
    } finally {
      world.token.scopes = ["repo", "project"];
    }
  });

  it("refuses a single-select value that is not an option id, with GitHub's VALIDATION error", async () => {
    const project = world.projects.find((p) => p.title === "Roadmap");
    const item = project?.items[0];
    const status = project?.fields.find((f) => f.name === "Status");
    const { body } = await post(
      `mutation($p: ID!, $i: ID!, $f: ID!) {
        updateProjectV2ItemFieldValue(input: { projectId: $p, itemId: $i, fieldId: $f, value: { text: "Done" } }) { projectV2Item { id } }
      }`,
      { p: project?.id, i: item?.id, f: status?.id },
    );
    expect(body.data).toEqual({ updateProjectV2ItemFieldValue: null });
    expect(body.errors[0]).toMatchObject({
      type: "VALIDATION",
      path: ["updateProjectV2ItemFieldValue"],
      message: "Did not receive a single select option Id to update a field of type single_select",
    });
  });

  it("asks for authentication before anything else", async () => {
    const response = await fetch(`${fake.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "test" },
      body: JSON.stringify({ query: "{ viewer { login } }" }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({
      message: "This endpoint requires you to be authenticated.",
    });
  });
});
