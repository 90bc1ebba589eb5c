/**
 * @module GitHub's GraphQL schema as GitHub publishes it (@octokit/graphql-schema, the introspection of
 * api.github.com), built once per process. The fake executes every query against it, so a field, argument
 * or type GitHub does not have fails exactly as it would against GitHub.
 */
import { schema as published } from "@octokit/graphql-schema";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

let built: GraphQLSchema | undefined;

export function githubGraphqlSchema(): GraphQLSchema {
  built ??= buildClientSchema(published.json as unknown as IntrospectionQuery);
  return built;
}
