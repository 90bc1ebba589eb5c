/**
 * @module Linear's GraphQL schema as Linear publishes it (linear-schema.graphql.gz beside this file: linear/linear's
 * packages/sdk/src/schema.graphql, gzipped, its first lines naming the commit), built once per process. The fake validates and executes every query
 * against it, so a field, argument or type Linear does not have fails the test as it would fail at Linear.
 * Its descriptions are dropped before building and the SDL is taken as valid: neither changes what a query
 * may ask for, and together they cut the build from about a second to a third of one in every test file.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { buildSchema, type GraphQLSchema } from "graphql";

let built: GraphQLSchema | undefined;

export function linearGraphqlSchema(): GraphQLSchema {
  built ??= buildSchema(
    gunzipSync(readFileSync(new URL("./linear-schema.graphql.gz", import.meta.url)))
      .toString("utf8")
      .replace(/"""[\s\S]*?"""/g, ""),
    { assumeValidSDL: true, noLocation: true },
  );
  return built;
}
