/**
 * @module `defineToolkit`: the unit a toolkit ships as. Its tools are declared as data, each with a `run`
 * that takes the toolkit's bound environment, so the catalogue can be listed, checked and documented with
 * no credentials and no network; `bind` turns a configuration and the host's services into that
 * environment, and only then do the tools run.
 */
import type { z } from "zod";
import { defineTool, type ToolDeclaration, type ToolOutput } from "../../declaration/define-tool.js";
import { assertCredentialPlacement } from "../../egress/egress-policy.js";
import { ToolDefinitionError } from "../../errors/tool-definition-error.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import type { AnyTool } from "../../registry/registry.js";
import type { ToolContext } from "../../seam/context.js";
import { canAskForConsent, type OAuthEndpoints, placementOf, type ToolkitAuth } from "./auth-model.js";
import { bindCredentials, watchCredentialRefs } from "./credential-bound-tools.js";
import type { ToolkitHost } from "./toolkit-host.js";

/** One tool of a toolkit: a declaration whose `run` also receives what `bind` built. */
export interface ToolSpec<I, O, Env> extends Omit<ToolDeclaration<I, O>, "run" | "provenance"> {
  /** The vendor's OAuth scopes this tool needs; a connection without them is asked for consent again. */
  oauthScopes?: readonly string[];
  /** Whether the bound environment has what this tool needs (fs_write needs a write root); always, when omitted. */
  available?(env: Env): boolean;
  run(input: I, context: ToolContext, env: Env): ToolOutput<O> | Promise<ToolOutput<O>>;
}

// biome-ignore lint/suspicious/noExplicitAny: a toolkit's tools have their own input/output types.
export type AnyToolSpec<Env> = ToolSpec<any, any, Env>;

/**
 * Fixes a toolkit's environment type once, so each tool's input and output types are still inferred:
 * `const githubTool = toolFor<GithubEnv>();  githubTool({ name: …, run(input, context, github) {…} })`.
 */
export function toolFor<Env>() {
  return <I, O = unknown>(spec: ToolSpec<I, O, Env>): ToolSpec<I, O, Env> => spec;
}

/** One row of a triage list: a tool by name, or the whole package as `<package>/*`. */
export interface TriageRow {
  tool: string;
  package: string;
  why: string;
}

/**
 * Where each tool that reaches a third party sits: publishing (public under the operator's brand) or
 * directed (reaches a third party, no strangers). `toolreg check` holds every such tool to one row.
 */
export interface ToolkitTriage {
  publishing?: readonly TriageRow[];
  directed?: readonly TriageRow[];
}

/** An override of a derived approval or idempotency value that a person has reviewed. */
export interface ReviewedOverride {
  tool: string;
  field: "approval" | "idempotencyKey";
}

/** Every toolkit's configuration may narrow its tools at construction (a catalogue budget at run time costs accuracy). */
export interface ToolSelection {
  include?: readonly string[] | undefined;
  exclude?: readonly string[] | undefined;
}

export interface ToolkitDefinition<Config, Env> {
  /** Short and snake_case: the key a config file loads it by (`github`, `files`). */
  id: string;
  version: string;
  /** The npm package that ships it: `toolreg` for the built-in ones. */
  package: string;
  description: string;
  /** The configuration a deployment gives it (zod); credentials appear only as `credentialRef`s. */
  config: z.ZodType<Config>;
  auth: ToolkitAuth;
  /**
   * Where the OAuth endpoints follow the configuration (GitHub Enterprise Server has its own): they replace
   * `auth.oauth`'s for the tools built with it. The operator's configuration, never a stored value, names them.
   * `undefined` when that configuration cannot ask a user (a GitHub App's installation is the tenant's, not a
   * user's): its tools then need a credential an operator configures, as a token-only toolkit's do.
   */
  oauthEndpoints?(config: Config): OAuthEndpoints | undefined;
  /** The hosts its tools reach, when they are fixed (a vendor's API); a configured base URL may replace them. */
  hosts?: readonly string[];
  /**
   * Its tools reach systems outside the deployment (the web, a vendor's API), and say so to a client. It
   * follows from `hosts`; a toolkit that reaches whatever hosts the operator's policy allows declares it.
   */
  openWorld?: boolean;
  tools: readonly AnyToolSpec<Env>[];
  /**
   * Where a declaration depends on what was bound (the SQL dialect shapes sql_query's input): the same
   * tools as declared for that environment. `tools` are then the declarations a catalogue documents.
   */
  toolsFor?(env: Env): readonly AnyToolSpec<Env>[];
  triage?: ToolkitTriage;
  reviewedOverrides?: readonly ReviewedOverride[];
  /**
   * The environment its tools run against, from the configuration and the host's services. `undefined`
   * when a service it needs is missing: then its tools do not exist, as with any toolkit whose wiring is absent.
   */
  bind(config: Config, host: ToolkitHost): Env | undefined | Promise<Env | undefined>;
}

export interface Toolkit<Config = unknown, Env = unknown> extends ToolkitDefinition<Config, Env> {
  /** Its tools as data: the same declarations `build` gives, whose `run` refuses (nothing is bound). */
  declarations(): readonly AnyTool[];
  /** Checks `config` against the schema: its values, or a message naming each bad field. */
  parseConfig(config: unknown): Config;
  /** Binds and builds the selected tools; `[]` when `bind` found its services missing. */
  build(config: unknown, host: ToolkitHost, selection?: ToolSelection): Promise<readonly AnyTool[]>;
  /** The tools over an environment a host built itself (a test's fixed clock, an open database). */
  withEnv(env: Env, selection?: ToolSelection): readonly AnyTool[];
}

const TOOLKIT_ID = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** Builds a toolkit, or throws a ToolDefinitionError naming the toolkit (or its tool) and the field. */
export function defineToolkit<Config, Env>(definition: ToolkitDefinition<Config, Env>): Toolkit<Config, Env> {
  const fail = (field: string, problem: string): never => {
    throw new ToolDefinitionError(`toolkit ${definition.id}`, field, problem);
  };
  if (!TOOLKIT_ID.test(definition.id)) fail("id", "must be snake_case");
  if (definition.auth.kind !== "none") {
    try {
      assertCredentialPlacement(definition.auth, "auth");
    } catch (error) {
      fail("auth", (error as Error).message.replace(/^auth: /, ""));
    }
  }
  if (definition.tools.length === 0) fail("tools", "declares no tool");
  const provenance =
    definition.package === "toolreg" ? "first-party" : (`package:${definition.package}` as const);
  const openWorld = definition.openWorld ?? definition.hosts !== undefined;
  const build = (spec: AnyToolSpec<Env>, env: () => Env) => {
    const { run, oauthScopes: _scopes, available: _available, ...declaration } = spec;
    return defineTool({
      ...declaration,
      ...(openWorld ? { hints: { ...declaration.hints, openWorld: true } } : {}),
      provenance,
      run: (input, context) => run(input, context, env()),
    });
  };
  const unbound = (): Env => {
    throw new ToolFailure(
      "precondition_failed",
      `the ${definition.id} toolkit is declared here but not configured`,
    );
  };
  // Declaring every tool now finds a bad declaration when the toolkit is defined, not when it is first served.
  const declarations = Object.freeze(definition.tools.map((spec) => build(spec, unbound)));
  const names = new Set<string>();
  for (const tool of declarations) {
    if (names.has(tool.name)) fail("tools", `declares ${tool.name} twice`);
    names.add(tool.name);
  }

  const parseConfig = (config: unknown): Config => {
    const parsed = definition.config.safeParse(config ?? {});
    if (parsed.success) return parsed.data;
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(the configuration)"}: ${issue.message}`,
    );
    throw new TypeError(`toolkit ${definition.id}: ${problems.join("; ")}`);
  };

  const withEnv = (env: Env, selection: ToolSelection = {}) => {
    const specs = definition.toolsFor?.(env) ?? definition.tools;
    for (const spec of specs) {
      if (!names.has(spec.name)) fail("toolsFor", `gives ${spec.name}, which the toolkit does not declare`);
    }
    return Object.freeze(
      selectTools(definition.id, specs, names, selection)
        .filter((spec) => spec.available?.(env) ?? true)
        .map((spec) => build(spec, () => env)),
    );
  };

  return Object.freeze({
    ...definition,
    declarations: () => declarations,
    parseConfig,
    withEnv,
    async build(config: unknown, host: ToolkitHost, selection: ToolSelection = {}) {
      selectTools(definition.id, definition.tools, names, selection);
      // The credential bind asks egress to inject is the one each built tool carries, for the consent step.
      const watched = watchCredentialRefs(host);
      const parsed = parseConfig(config);
      const env = await definition.bind(parsed, watched.host);
      if (env === undefined) return [];
      return bindCredentials(
        { ...definition, auth: authFor(definition, parsed) },
        withEnv(env, selection),
        watched.refs(),
        watched.exchanges(),
      );
    },
  });
}

/** The auth model of the tools built with `config`: its own OAuth endpoints, or none for a configuration without consent. */
function authFor<Config>(
  definition: Pick<ToolkitDefinition<Config, unknown>, "auth" | "oauthEndpoints">,
  config: Config,
): ToolkitAuth {
  const { auth } = definition;
  if (!definition.oauthEndpoints || !canAskForConsent(auth)) return auth;
  const oauth = definition.oauthEndpoints(config);
  return oauth ? { ...auth, oauth } : { kind: "token", ...placementOf(auth) };
}

function selectTools<Env>(
  id: string,
  tools: readonly AnyToolSpec<Env>[],
  names: ReadonlySet<string>,
  { include, exclude }: ToolSelection,
): readonly AnyToolSpec<Env>[] {
  for (const name of [...(include ?? []), ...(exclude ?? [])]) {
    if (!names.has(name)) throw new TypeError(`toolkit ${id}: it has no tool named ${name}`);
  }
  const kept = include === undefined ? undefined : new Set(include);
  const dropped = new Set(exclude ?? []);
  return tools.filter((tool) => (kept === undefined || kept.has(tool.name)) && !dropped.has(tool.name));
}
