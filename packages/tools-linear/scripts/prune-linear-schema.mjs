// Writes src/fake/linear-schema.pruned.graphql from src/fake/linear-schema.graphql.gz (Linear's published
// schema): Query and Mutation cut to the root fields the tools send, plus every type those reach, without
// descriptions; and the same schema as gzipped introspection JSON (linear-schema.pruned.json.gz), which is
// what the fake loads: graphql-js builds it and validates a first query about five times faster than from SDL.
// Run after replacing the .gz or when a tool uses a new root field: node packages/tools-linear/scripts/prune-linear-schema.mjs
import { readFileSync, writeFileSync } from "node:fs";
import { gunzipSync, gzipSync } from "node:zlib";
import {
  buildClientSchema,
  buildSchema,
  GraphQLObjectType,
  GraphQLSchema,
  introspectionFromSchema,
  printSchema,
} from "graphql";

const QUERY_FIELDS = ["comment", "issue", "searchIssues", "team", "teams"];
const MUTATION_FIELDS = ["commentCreate", "issueCreate", "issueUpdate"];

const fake = new URL("../src/fake/", import.meta.url);
const full = gunzipSync(readFileSync(new URL("linear-schema.graphql.gz", fake))).toString("utf8");
const header = full
  .split("\n")
  .filter((line) => line.startsWith("#"))
  .join("\n");
const schema = buildSchema(full.replace(/"""[\s\S]*?"""/g, ""), { noLocation: true });

function rootWith(type, names) {
  const config = type.toConfig();
  const missing = names.filter((name) => !(name in config.fields));
  if (missing.length > 0) throw new Error(`${type.name} has no ${missing.join(", ")}`);
  return new GraphQLObjectType({
    ...config,
    fields: Object.fromEntries(names.map((name) => [name, config.fields[name]])),
  });
}

// A new schema from the cut roots collects exactly the types they reach.
const pruned = new GraphQLSchema({
  query: rootWith(schema.getQueryType(), QUERY_FIELDS),
  mutation: rootWith(schema.getMutationType(), MUTATION_FIELDS),
  directives: schema.getDirectives(),
});

const sdl = printSchema(pruned);
const introspection = introspectionFromSchema(pruned, { descriptions: false });
// The two files must say the same schema.
if (printSchema(buildClientSchema(introspection)) !== sdl)
  throw new Error("the introspection differs from the SDL");
writeFileSync(
  new URL("linear-schema.pruned.json.gz", fake),
  gzipSync(JSON.stringify(introspection), { level: 9 }),
);
writeFileSync(
  new URL("linear-schema.pruned.graphql", fake),
  `${header}\n# Pruned by packages/tools-linear/scripts/prune-linear-schema.mjs to Query { ${QUERY_FIELDS.join(" ")} } and\n# Mutation { ${MUTATION_FIELDS.join(" ")} } and the types they reach; descriptions dropped. Do not edit: rerun it.\n${sdl}\n`,
);
