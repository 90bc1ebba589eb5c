/**
 * @module The fake's GraphQL endpoint, `POST /graphql`: a real GraphQL executor over GitHub's published
 * schema (graphql-schema.ts) whose root resolvers read and change a ProjectsWorld (projects-resolvers.ts).
 * Every answer conforms to GitHub's schema by construction, and a query naming a field GitHub does not
 * have fails as it fails at GitHub: HTTP 200 with `errors[]` and no `data`. What GitHub adds to the spec
 * is reproduced too: authentication first, then scopes and pagination bounds (graphql-checks.ts), then
 * errors carrying GitHub's `type` (NOT_FOUND, VALIDATION, …) beside the message, and the rate-limit
 * headers of https://docs.github.com/en/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api.
 */
import { type DocumentNode, execute, type GraphQLError, Kind, parse, validate } from "graphql";
import type { FakeRoutes, GithubFake } from "./github-fake.js";
import { type GithubGraphqlError, githubQueryChecks } from "./graphql-checks.js";
import { githubGraphqlSchema } from "./graphql-schema.js";
import { projectsRoot } from "./projects-resolvers.js";
import type { ProjectsWorld } from "./projects-world.js";

const HOURLY_POINTS = 5000;

/** https://docs.github.com/en/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql */
const UNAUTHENTICATED = {
  message: "This endpoint requires you to be authenticated.",
  documentation_url:
    "https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql",
};

export function graphqlRoutes(world: ProjectsWorld): FakeRoutes {
  const root = projectsRoot(world);
  return (app) => {
    let used = 0;
    const reset = Math.floor(Date.now() / 1000) + 3600;
    app.post("/graphql", async (c) => {
      if (!c.req.header("authorization")) return answer(401, UNAUTHENTICATED, {});
      let request: { query?: unknown; variables?: unknown; operationName?: unknown };
      try {
        request = await c.req.json();
      } catch {
        return answer(
          400,
          { message: "Problems parsing JSON", documentation_url: "https://docs.github.com/graphql" },
          {},
        );
      }
      used += 1;
      const headers = {
        "x-ratelimit-limit": String(HOURLY_POINTS),
        "x-ratelimit-remaining": String(HOURLY_POINTS - used),
        "x-ratelimit-used": String(used),
        "x-ratelimit-reset": String(reset),
        "x-ratelimit-resource": "graphql",
        "x-oauth-scopes": world.token.scopes.join(", "),
        "x-github-media-type": "github.v4; format=json",
      };
      if (typeof request.query !== "string") {
        return answer(
          200,
          { errors: [{ message: "A query attribute must be specified and must be a string." }] },
          headers,
        );
      }
      const variables = (request.variables ?? {}) as Record<string, unknown>;
      const schema = githubGraphqlSchema();
      let document: DocumentNode;
      try {
        document = parse(request.query);
      } catch (error) {
        return answer(200, { errors: [githubShape(error as GraphQLError)] }, headers);
      }
      const invalid = validate(schema, document);
      if (invalid.length > 0) return answer(200, { errors: invalid.map(githubShape) }, headers);
      const refused = githubQueryChecks(schema, document, variables, world.token.scopes);
      if (refused.length > 0) return answer(200, { data: null, errors: refused }, headers);
      const result = await execute({
        schema,
        document,
        rootValue: root,
        variableValues: variables,
        operationName: typeof request.operationName === "string" ? request.operationName : undefined,
      });
      const body = result.errors?.length
        ? { data: result.data ?? null, errors: result.errors.map(githubShape) }
        : { data: result.data };
      return answer(200, body, headers);
    });
  };
}

/** Not through `fake.json`: /graphql is outside GitHub's REST description; the schema checked this answer. */
function answer(status: number, body: unknown, headers: Record<string, string>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });
}

/** GitHub's error entry: `type` at the top, then path, locations and message. */
function githubShape(error: GraphQLError): GithubGraphqlError {
  const { message, locations, path, extensions } = error.toJSON();
  const { type, ...rest } = (extensions ?? {}) as { type?: string } & Record<string, unknown>;
  return {
    ...(type ? { type } : {}),
    ...(path ? { path } : {}),
    ...(locations ? { locations } : {}),
    message,
    ...(Object.keys(rest).length > 0 ? { extensions: rest } : {}),
  };
}

/** A GraphQL request the fake received: its operation's name and its variables. */
export interface GraphqlOperation {
  operation: string | undefined;
  kind: "query" | "mutation" | "subscription" | undefined;
  variables: Record<string, unknown>;
  query: string;
}

/** The GraphQL requests the fake has received, oldest first. */
export function graphqlOperations(fake: GithubFake): GraphqlOperation[] {
  return fake.requests
    .filter((request) => request.method === "POST" && request.path === "/graphql")
    .map((request) => {
      const body = request.body as { query: string; variables?: Record<string, unknown> };
      const operation = parse(body.query).definitions.find(
        (definition) => definition.kind === Kind.OPERATION_DEFINITION,
      );
      return {
        operation: operation?.kind === Kind.OPERATION_DEFINITION ? operation.name?.value : undefined,
        kind: operation?.kind === Kind.OPERATION_DEFINITION ? operation.operation : undefined,
        variables: body.variables ?? {},
        query: body.query,
      };
    });
}
