/**
 * @module Linear's GraphQL schema as the fake validates and executes against it. scripts/prune-linear-schema.mjs
 * cuts Linear's published schema (linear-schema.graphql.gz beside this file: linear/linear's
 * packages/sdk/src/schema.graphql, gzipped, its first lines naming the commit) to the root fields the tools
 * send and every type those reach, and writes it twice: linear-schema.pruned.graphql to read, and the same
 * schema as introspection JSON (linear-schema.pruned.json.gz), loaded here because graphql-js builds it and
 * validates a first query several times faster than from SDL. A field, argument or type Linear does not have
 * fails the test as it would at Linear; a root field the tools newly use fails until the script reruns.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { buildClientSchema, type GraphQLSchema, type IntrospectionQuery } from "graphql";

let built: GraphQLSchema | undefined;

export function linearGraphqlSchema(): GraphQLSchema {
  // Taken as valid: the script checked it prints the same as the SDL graphql-js built from Linear's own.
  built ??= buildClientSchema(
    JSON.parse(
      gunzipSync(readFileSync(new URL("./linear-schema.pruned.json.gz", import.meta.url))).toString("utf8"),
    ) as IntrospectionQuery,
    { assumeValid: true },
  );
  return built;
}
