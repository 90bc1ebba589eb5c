/**
 * @module A local Linear GraphQL endpoint, `POST /graphql`. What it reproduces:
 * - authentication by a personal API key sent bare in Authorization (a key with "Bearer " before it is
 *   refused, as Linear refuses it): Linear's AUTHENTICATION_ERROR entry, "type": "authentication error";
 * - every query parsed and validated against Linear's published schema (linear-schema.ts), then executed
 *   over a LinearWorld (linear-resolvers.ts): an invalid query is refused as a GraphQL validation error;
 * - the rate-limit headers of linear.app/developers/rate-limiting on every answer
 *   (X-RateLimit-Requests-Limit/-Remaining/-Reset, X-RateLimit-Complexity-*, X-Complexity; resets in UTC
 *   epoch milliseconds), and its refusal: HTTP 400 with `extensions.code` "RATELIMITED", with the
 *   X-RateLimit-Endpoint-* headers and X-RateLimit-Endpoint-Name when an endpoint's own limit ran out
 *   (searchIssues: "Rate-limited to 30 requests per minute", its schema description);
 * - a failure beside data (partial data), entries of any shape beside data (`errorsNext`), a 429 with and
 *   without Retry-After from a proxy in front, a page in place of JSON, and an answer lost after the write
 *   was made (502 from a gateway).
 */
import {
  type DocumentNode,
  executeSync,
  type GraphQLError,
  GraphQLError as GraphQLErrorClass,
  Kind,
  parse,
  validate,
} from "graphql";
import { type FakeReply, HTML_PAGE, type SeenRequest, startVendorFake, type VendorFake } from "toolreg/test";
import { linearRoot } from "./linear-resolvers.js";
import { linearGraphqlSchema } from "./linear-schema.js";
import { createWorld, type LinearWorld, TEST_KEY } from "./linear-world.js";

export type LinearScenario =
  | "rate-limited"
  | "rate-limited-no-reset"
  | "endpoint-rate-limited"
  | "odd-errors"
  | "http-429"
  | "http-429-retry-after"
  | "partial"
  | "server-error"
  | "not-json"
  | "lost-answer";

/** A GraphQL request the fake received: its operation, variables and the credential it carried. */
export interface GraphqlOperation {
  name: string | undefined;
  kind: "query" | "mutation" | "subscription" | undefined;
  variables: Record<string, unknown>;
  query: string;
  authorization: string | undefined;
}

export interface LinearFake extends VendorFake<LinearScenario> {
  /** The GraphQL endpoint: `${url}/graphql`. */
  endpoint: string;
  world: LinearWorld;
  operations(): GraphqlOperation[];
  /** The next answer: the query's data with these `errors[]` entries beside it, whatever their shape. */
  errorsNext(errors: unknown[]): void;
}

/** The fake's budgets: figures of its own, in the headers' form; linear.app/developers/rate-limiting sets the real ones. */
const HOURLY_REQUESTS = 2500;
const HOURLY_COMPLEXITY = 3_000_000;

/**
 * Linear's answer to a missing, revoked or mistyped key. Linear's docs publish no such body: this is from
 * secondary sources, public client test fixtures for Linear (message "Authentication required, not
 * authenticated", extensions type "authentication error", code AUTHENTICATION_ERROR, userPresentableMessage
 * "You need to authenticate to access this operation."). Those fixtures disagree on the HTTP status (200, 400,
 * 401); the fake answers 400 and the client reads the body whatever the status.
 */
const UNAUTHENTICATED = {
  errors: [
    {
      message: "Authentication required, not authenticated",
      extensions: {
        type: "authentication error",
        code: "AUTHENTICATION_ERROR",
        userPresentableMessage: "You need to authenticate to access this operation.",
      },
    },
  ],
};

/**
 * linear.app/developers/rate-limiting: over a limit, HTTP 400 and an entry whose extensions.code is
 * RATELIMITED. The page gives no message; "Rate limit exceeded" is the fake's own, and no tool reads it.
 */
const RATELIMITED = {
  errors: [{ message: "Rate limit exceeded", extensions: { code: "RATELIMITED" } }],
};

function linearShape(error: GraphQLError) {
  const { message, locations, path, extensions } = error.toJSON();
  return {
    message,
    ...(path ? { path } : {}),
    ...(locations ? { locations } : {}),
    ...(extensions && Object.keys(extensions).length > 0 ? { extensions } : {}),
  };
}

export async function startLinearFake(world: LinearWorld = createWorld()): Promise<LinearFake> {
  const root = linearRoot(world);
  let used = 0;
  const oddErrors: unknown[][] = [];
  const reset = () => String(Date.now() + 3_600_000);

  function answer(request: SeenRequest, scenario: LinearScenario | undefined): FakeReply {
    if (request.method !== "POST" || request.path !== "/graphql") return { status: 404, body: "Not Found" };
    // Linear documents no limit-free answer: every one carries the budgets left.
    used += 1;
    const headers: Record<string, string> = {
      "x-ratelimit-requests-limit": String(HOURLY_REQUESTS),
      "x-ratelimit-requests-remaining": String(Math.max(0, HOURLY_REQUESTS - used)),
      "x-ratelimit-requests-reset": reset(),
      "x-ratelimit-complexity-limit": String(HOURLY_COMPLEXITY),
      "x-ratelimit-complexity-remaining": String(HOURLY_COMPLEXITY - used * 10),
      "x-ratelimit-complexity-reset": reset(),
      "x-complexity": "10",
    };
    if (request.headers.authorization !== TEST_KEY) return { status: 400, headers, body: UNAUTHENTICATED };
    switch (scenario) {
      case "rate-limited":
        return {
          status: 400,
          headers: {
            ...headers,
            "x-ratelimit-requests-remaining": "0",
            "x-ratelimit-requests-reset": String(Date.now() + 60_000),
          },
          body: RATELIMITED,
        };
      case "rate-limited-no-reset":
        // The same refusal with no budget's reset and no Retry-After: how long to wait is unknown.
        return {
          status: 400,
          headers: { "content-type": "application/json" },
          body: RATELIMITED,
        };
      case "endpoint-rate-limited":
        return {
          status: 400,
          headers: {
            ...headers,
            "x-ratelimit-endpoint-requests-limit": "30",
            "x-ratelimit-endpoint-requests-remaining": "0",
            "x-ratelimit-endpoint-requests-reset": String(Date.now() + 20_000),
            "x-ratelimit-endpoint-name": "searchIssues",
          },
          body: RATELIMITED,
        };
      case "http-429":
        return { status: 429, headers: { "content-type": "text/plain" }, body: "Too Many Requests" };
      case "http-429-retry-after":
        return {
          status: 429,
          headers: { "content-type": "text/plain", "retry-after": "7" },
          body: "Too Many Requests",
        };
      case "server-error":
        return {
          status: 503,
          headers: { "content-type": "text/html" },
          body: "<html>Service Unavailable</html>",
        };
      case "not-json":
        return HTML_PAGE;
    }
    let request_: { query?: unknown; variables?: unknown; operationName?: unknown };
    let document: DocumentNode;
    try {
      request_ = JSON.parse(request.body);
      document = parse(String(request_.query));
    } catch (error) {
      const message = error instanceof GraphQLErrorClass ? error.message : "Invalid JSON body";
      return { status: 400, headers, body: { errors: [{ message, extensions: { type: "graphql error" } }] } };
    }
    const invalid = validate(linearGraphqlSchema(), document);
    if (invalid.length > 0) {
      return {
        status: 400,
        headers,
        body: {
          errors: invalid.map((error) => ({ ...linearShape(error), extensions: { type: "graphql error" } })),
        },
      };
    }
    const result = executeSync({
      schema: linearGraphqlSchema(),
      document,
      rootValue: root,
      variableValues: (request_.variables ?? {}) as Record<string, unknown>,
    });
    if (scenario === "lost-answer") {
      return { status: 502, headers: { "content-type": "text/html" }, body: "<html>502 Bad Gateway</html>" };
    }
    const errors: unknown[] = (result.errors ?? []).map(linearShape);
    if (scenario === "odd-errors") errors.push(...(oddErrors.shift() ?? []));
    if (scenario === "partial") {
      errors.push({
        message: "Internal server error",
        extensions: { type: "internal error", userError: false },
      });
    }
    return {
      status: 200,
      headers,
      body: errors.length > 0 ? { data: result.data ?? null, errors } : { data: result.data },
    };
  }

  const fake = await startVendorFake(answer);
  return {
    ...fake,
    endpoint: `${fake.url}/graphql`,
    world,
    errorsNext(errors) {
      oddErrors.push(errors);
      fake.next("odd-errors");
    },
    operations: () =>
      fake.requests
        .filter((request) => request.method === "POST" && request.path === "/graphql")
        .map((request) => {
          const body = JSON.parse(request.body) as { query: string; variables?: Record<string, unknown> };
          const operation = parse(body.query).definitions.find(
            (definition) => definition.kind === Kind.OPERATION_DEFINITION,
          );
          const named = operation?.kind === Kind.OPERATION_DEFINITION ? operation : undefined;
          return {
            name: named?.name?.value,
            kind: named?.operation,
            variables: body.variables ?? {},
            query: body.query,
            authorization: request.headers.authorization,
          };
        }),
  };
}
