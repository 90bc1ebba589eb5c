// Trims Atlassian's Jira Cloud platform OpenAPI description (swagger-v3.v3.json, Apache-2.0, as its
// info.license says) to the operations the toolkit calls and the schemas their answers reference:
//   node trim-spec.mjs <swagger-v3.v3.json> > jira-openapi.trimmed.json
import { readFileSync } from "node:fs";

const OPERATIONS = [
  ["post", "/rest/api/3/search/jql"],
  ["get", "/rest/api/3/issue/{issueIdOrKey}"],
  ["get", "/rest/api/3/project/search"],
  ["get", "/rest/api/3/issue/{issueIdOrKey}/transitions"],
  ["post", "/rest/api/3/issue"],
  ["put", "/rest/api/3/issue/{issueIdOrKey}"],
  ["post", "/rest/api/3/issue/{issueIdOrKey}/transitions"],
  ["get", "/rest/api/3/issue/{issueIdOrKey}/comment"],
  ["post", "/rest/api/3/issue/{issueIdOrKey}/comment"],
];

const spec = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8"));
const paths = {};
const wanted = new Set();
const collect = (value) => {
  if (Array.isArray(value)) return value.forEach(collect);
  if (typeof value !== "object" || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    if (key === "$ref" && typeof child === "string" && child.startsWith("#/components/schemas/")) {
      const name = child.slice("#/components/schemas/".length);
      if (!wanted.has(name)) {
        wanted.add(name);
        collect(spec.components.schemas[name]);
      }
    } else collect(child);
  }
};
for (const [method, path] of OPERATIONS) {
  const { operationId, responses } = spec.paths[path][method];
  const kept = Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const schema = response.content?.["application/json"]?.schema;
      return [status, schema ? { content: { "application/json": { schema } } } : {}];
    }),
  );
  paths[path] = { ...paths[path], [method]: { operationId, responses: kept } };
  collect(kept);
}
const schemas = Object.fromEntries([...wanted].sort().map((name) => [name, spec.components.schemas[name]]));
process.stdout.write(
  `${JSON.stringify({ openapi: spec.openapi, info: spec.info, paths, components: { schemas } }, null, 1)}\n`,
);
