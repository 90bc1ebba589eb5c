/**
 * @module What GitHub checks after a query is valid GraphQL and before it runs, each reproduced from
 * GitHub's documentation: every connection needs `first` or `last`, at most 100
 * (https://docs.github.com/en/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#node-limit),
 * and every Projects v2 field needs the `read:project` scope, every Projects v2 mutation `project`
 * (https://docs.github.com/en/issues/planning-and-tracking-with-projects/automating-your-project/using-the-api-to-manage-projects#authentication).
 * The messages are GitHub's own wording as clients have captured it.
 */
import {
  type DocumentNode,
  type FieldNode,
  type GraphQLSchema,
  getNamedType,
  Kind,
  TypeInfo,
  type ValueNode,
  visit,
  visitWithTypeInfo,
} from "graphql";

/** One entry of GitHub's `errors[]`: GitHub puts `type` beside the message, not under `extensions`. */
export interface GithubGraphqlError {
  type?: string;
  path?: readonly (string | number)[];
  locations?: readonly { line: number; column: number }[];
  message: string;
  extensions?: Record<string, unknown>;
}

const READ_PROJECT = { accepted: ["read:project", "project"], named: "read:project" };
const WRITE_PROJECT = { accepted: ["project"], named: "project" };

/** Fields behind a scope, by name on any type (GitHub checks every ProjectV2 field; its entry points suffice here). */
const SCOPED_FIELDS: Record<string, typeof READ_PROJECT> = {
  projectV2: READ_PROJECT,
  projectsV2: READ_PROJECT,
  projectItems: READ_PROJECT,
  "Mutation.createProjectV2": WRITE_PROJECT,
  "Mutation.addProjectV2ItemById": WRITE_PROJECT,
  "Mutation.updateProjectV2ItemFieldValue": WRITE_PROJECT,
  "Mutation.deleteProjectV2Item": WRITE_PROJECT,
};

const MAX_PAGE = 100;

/** GitHub's refusals of a valid document, in document order; empty when it may run. */
export function githubQueryChecks(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  grantedScopes: readonly string[],
): GithubGraphqlError[] {
  const scopeErrors: GithubGraphqlError[] = [];
  const pageErrors: GithubGraphqlError[] = [];
  const defaults = variableDefaults(document);
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        const name = node.name.value;
        const parent = typeInfo.getParentType()?.name ?? "";
        const scoped = SCOPED_FIELDS[`${parent}.${name}`] ?? SCOPED_FIELDS[name];
        if (scoped && !scoped.accepted.some((scope) => grantedScopes.includes(scope))) {
          scopeErrors.push({
            type: "INSUFFICIENT_SCOPES",
            locations: [location(node)],
            message: `Your token has not been granted the required scopes to execute this query. The '${name}' field requires one of the following scopes: ['${scoped.named}'], but your token has only been granted the: [${grantedScopes.map((scope) => `'${scope}'`).join(", ")}] scopes. Please modify your token's scopes at: https://github.com/settings/tokens.`,
          });
        }
        const type = typeInfo.getType();
        if (!type || !getNamedType(type).name.endsWith("Connection")) return;
        const value = (argument: string) => argumentValue(node, argument, variables, defaults);
        const first = value("first");
        const last = value("last");
        if (first === undefined && last === undefined) {
          pageErrors.push({
            locations: [location(node)],
            message: `You must provide a \`first\` or \`last\` value to properly paginate the \`${name}\` connection.`,
          });
        }
        for (const [argument, count] of [
          ["first", first],
          ["last", last],
        ] as const) {
          if (typeof count === "number" && count > MAX_PAGE) {
            pageErrors.push({
              locations: [location(node)],
              message: `Requesting ${count} records on the \`${name}\` connection exceeds the \`${argument}\` limit of ${MAX_PAGE} records.`,
            });
          }
        }
      },
    }),
  );
  // GitHub refuses for scopes before it looks at the shape of the request.
  return scopeErrors.length > 0 ? scopeErrors : pageErrors;
}

function location(node: FieldNode) {
  return { line: node.loc?.startToken.line ?? 1, column: node.loc?.startToken.column ?? 1 };
}

function variableDefaults(document: DocumentNode): Record<string, ValueNode> {
  const defaults: Record<string, ValueNode> = {};
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const variable of definition.variableDefinitions ?? []) {
      if (variable.defaultValue) defaults[variable.variable.name.value] = variable.defaultValue;
    }
  }
  return defaults;
}

function argumentValue(
  node: FieldNode,
  name: string,
  variables: Record<string, unknown>,
  defaults: Record<string, ValueNode>,
): number | undefined {
  const value = node.arguments?.find((argument) => argument.name.value === name)?.value;
  if (!value) return undefined;
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind !== Kind.VARIABLE) return undefined;
  const given = variables[value.name.value];
  if (typeof given === "number") return given;
  const fallback = defaults[value.name.value];
  return given === undefined && fallback?.kind === Kind.INT ? Number(fallback.value) : undefined;
}
