/**
 * @module `mcpServer`: another MCP server's tools as toolreg tools. Each is named `<prefix>_<tool>`, comes
 * from `mcp:<name>`, has the effect the deployment gave it or the safe reading of its hints, and requires
 * the scopes the deployment set: nothing the upstream says widens what a caller may do. Each definition
 * is pinned on first sight; one that changes afterwards is reported and, by default, withheld until a
 * person accepts it (`toolreg mcp accept SERVER TOOL`).
 */
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { ToolAnnotations, Tool as UpstreamTool } from "@modelcontextprotocol/sdk/types.js";
import type { Category } from "../../declaration/categories.js";
import { DEFAULT_LIMITS, defineTool, type ToolProvenance } from "../../declaration/define-tool.js";
import type { Effect } from "../../declaration/effect.js";
import { changesData, EFFECTS } from "../../declaration/effect.js";
import type { ToolHints } from "../../declaration/hints.js";
import { createEgressClient, type EgressClient } from "../../egress/egress-client.js";
import type { EgressPolicyInit, HostCredential } from "../../egress/egress-policy.js";
import type { ArtifactStore } from "../../ports/artifact-store.js";
import type { PinStore, ToolPin } from "../../ports/pin-store.js";
import type { AnyTool } from "../../registry/registry.js";
import type { ConsentExchange } from "../../seam/consent/consent-exchange.js";
import { type CredentialResolver, type Logger, silentLogger } from "../../seam/context.js";
import { CallerRequests } from "./caller-requests.js";
import { type Classification, classifyEffect, importedHints } from "./classify-effect.js";
import { egressFetch } from "./egress-fetch.js";
import { importedNames, type NameOutcome, snakeCase } from "./imported-name.js";
import { importedOutputSchema } from "./imported-output.js";
import { neutralisedSchema } from "./imported-schema.js";
import { ImportAuthorization, type ImportAuthorizationInput } from "./oauth/import-authorization.js";
import type { McpOAuthHost, McpOAuthSettings } from "./oauth/mcp-oauth-settings.js";
import { OAuthCalls } from "./oauth/oauth-calls.js";
import { type UserConnectionClosed, UserConnections } from "./oauth/user-connections.js";
import { createMemoryPinStore } from "./pin-store.js";
import { definitionHash, pinnedDefinitionOf } from "./pinned-definition.js";
import { type ReconnectOptions, UpstreamConnection } from "./upstream-connection.js";
import { toToolOutput } from "./upstream-result.js";

export type McpTransportConfig =
  | {
      kind: "stdio";
      command: string;
      args?: readonly string[];
      /** Added to the few variables the SDK passes on (PATH, HOME …); the host's environment is not. */
      env?: Readonly<Record<string, string>>;
      /** Variables whose values are credentials: name → credentialRef, resolved as the server starts. */
      envCredentials?: Readonly<Record<string, string>>;
      cwd?: string;
    }
  | {
      kind: "http";
      url: string;
      /** The egress policy requests to this server go out under; the default reaches public addresses only. */
      egress?: EgressPolicyInit;
      /** The header carrying the deployment's credential for this server; a caller's own token never is. */
      credential?: HostCredential;
      /** Authorize with OAuth (the MCP authorization spec) instead of a static credential. */
      oauth?: McpOAuthSettings;
    };

type HttpTransportConfig = Extract<McpTransportConfig, { kind: "http" }>;

export interface McpImportOptions {
  /** The server's name: provenance `mcp:<name>` and the key its pins are kept under. */
  name: string;
  /** Put before every tool name; the name in snake_case by default. */
  prefix?: string;
  transport: McpTransportConfig;
  /** The category every imported tool gets (a tenant switches categories on and off). Default `general`. */
  category?: Category;
  /** Scopes a caller needs to see and call any of these tools. */
  scopes?: readonly string[];
  /** The deployment's classification of tools by their upstream name; it wins over any hint. */
  effects?: Readonly<Record<string, Effect>>;
  /** Where pins are kept; in memory (this process only) by default. */
  pins?: PinStore;
  /** What a changed definition does: withheld until accepted (default), or reported and served. */
  onDrift?: "withhold" | "report";
  /** Resolves `credentialRef`s for the connection itself. */
  credentials?: CredentialResolver;
  /** Where an OAuth import keeps its tokens and asks for consent: the registry server's stores and links. */
  oauthHost?: McpOAuthHost;
  /**
   * Where images, audio and blob resources from the server are kept, for the caller to read at the
   * `artifact://` address the result names; without one, the result says they were not kept.
   */
  artifacts?: ArtifactStore;
  /** Each call's time limit. Default 30 s. */
  timeoutMs?: number;
  reconnect?: ReconnectOptions;
  onEvent?: (event: McpImportEvent) => void;
  logger?: Logger;
  clock?: () => number;
}

export type McpImportEvent =
  | {
      type: "mcp.drift";
      server: string;
      tool: string;
      name: string;
      acceptedHash: string;
      offeredHash: string;
      withheld: boolean;
    }
  | { type: "mcp.withheld"; server: string; tool: string; reason: string }
  | { type: "mcp.disconnected"; server: string; message: string }
  | { type: "mcp.reconnect_failed"; server: string; message: string; nextDelayMs: number }
  | { type: "mcp.listed"; server: string; available: number; withheld: number }
  | { type: "mcp.authorization_required"; server: string; principalId: string; consentUrl: string }
  | {
      /** `oauth.per: "user"`: a user's own connection was closed (unused, or the count was reached). */
      type: "mcp.user_connection_closed";
      server: string;
      tenantId: string;
      principalId: string;
      reason: UserConnectionClosed;
    };

/** What became of one upstream tool in the last listing. */
export interface ImportedToolReport {
  tool: string;
  name: string | undefined;
  effect: Effect | undefined;
  basis: Classification["basis"] | undefined;
  status: "available" | "drifted" | "withheld";
  reason?: string;
}

export interface McpImport {
  readonly name: string;
  /** The tools available now; changes after a re-listing (see onChange). */
  tools(): readonly AnyTool[];
  report(): readonly ImportedToolReport[];
  /** Lists again and checks every definition against its pin. */
  refresh(): Promise<void>;
  onChange(listener: () => void): () => void;
  /** What completes this server's OAuth consent at the registry server's callback; none without OAuth. */
  readonly consentExchange: ConsentExchange | undefined;
  close(): Promise<void>;
}

const NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** Connects, lists and pins; throws when the first connection or listing fails. */
export async function mcpServer(options: McpImportOptions): Promise<McpImport> {
  if (!NAME.test(options.name)) {
    throw new TypeError(
      `mcpServer name "${options.name}": use letters, digits, ".", "_" or "-" (at most 64)`,
    );
  }
  const prefix = options.prefix ?? snakeCase(options.name);
  if (!/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/.test(prefix)) {
    throw new TypeError(`mcpServer ${options.name}: prefix "${prefix}" is not snake_case`);
  }
  const imported = new ImportedServer(options, prefix);
  try {
    await imported.start();
  } catch (error) {
    await imported.close();
    throw error;
  }
  return imported;
}

class ImportedServer implements McpImport {
  readonly name: string;
  readonly #options: McpImportOptions;
  readonly #prefix: string;
  readonly #pins: PinStore;
  readonly #logger: Logger;
  readonly #now: () => number;
  readonly #connection: UpstreamConnection;
  /** Who is asked when the upstream asks its client something during a call. */
  readonly #callers: CallerRequests;
  readonly #listeners = new Set<() => void>();
  #tools: readonly AnyTool[] = [];
  #report: readonly ImportedToolReport[] = [];
  #refreshing: Promise<void> | undefined;
  #again = false;
  /** One egress client for every connection to an HTTP server, reconnections included. */
  #egress: EgressClient | undefined;
  readonly #authorization: ImportAuthorization | undefined;
  /** Which OAuth connection (and whose token) each call goes out on. */
  readonly #oauthCalls: OAuthCalls | undefined;
  /** Whether the first connection was made; the connection keeps itself up from then on. */
  #connected = false;

  constructor(options: McpImportOptions, prefix: string) {
    this.name = options.name;
    this.#options = options;
    this.#prefix = prefix;
    this.#pins = options.pins ?? createMemoryPinStore();
    this.#logger = options.logger ?? silentLogger;
    this.#now = options.clock ?? Date.now;
    this.#authorization = this.#authorizationOf(options);
    this.#callers = new CallerRequests(options.name);
    this.#connection = new UpstreamConnection(
      options.name,
      () => this.#openTransport(),
      {
        onToolsChanged: () => {
          this.refresh().catch((error: unknown) =>
            this.#logger.warn({ err: error, server: this.name }, "re-listing an MCP server failed"),
          );
        },
        onDisconnected: (error) =>
          this.#emit({ type: "mcp.disconnected", server: this.name, message: messageOf(error) }),
        onReconnectFailed: (error, nextDelayMs) =>
          this.#emit({
            type: "mcp.reconnect_failed",
            server: this.name,
            message: messageOf(error),
            nextDelayMs,
          }),
      },
      this.#callers,
      options.reconnect,
    );
    this.#oauthCalls = this.#oauthCallsOf(options);
  }

  async start(): Promise<void> {
    try {
      if (!this.#connected) {
        await this.#connection.connect();
        this.#connected = true;
      }
      await this.refresh();
    } catch (error) {
      // An OAuth server that wants its user's consent first (to connect, or to list): served once it is given.
      if (!this.#authorization || !ImportAuthorization.needsConsent(error)) throw error;
    }
  }

  get consentExchange(): ConsentExchange | undefined {
    return this.#oauthCalls?.exchange;
  }

  tools(): readonly AnyTool[] {
    return this.#tools;
  }

  report(): readonly ImportedToolReport[] {
    return this.#report;
  }

  /** One listing at a time; a change announced during one is listed again right after it. */
  refresh(): Promise<void> {
    if (this.#refreshing) {
      this.#again = true;
      return this.#refreshing;
    }
    this.#refreshing = (async () => {
      try {
        do {
          this.#again = false;
          await this.#list();
        } while (this.#again);
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    await this.#connection.close();
    await this.#oauthCalls?.close();
    await this.#egress?.close();
    await this.#authorization?.close();
  }

  async #list(): Promise<void> {
    const upstream = await this.#connection.listTools();
    const pins = new Map((await this.#pins.list(this.name)).map((pin) => [pin.tool, pin]));
    const names = importedNames(
      this.#prefix,
      upstream.map((tool) => tool.name),
    );
    const tools: AnyTool[] = [];
    const report: ImportedToolReport[] = [];
    for (const tool of upstream) {
      const entry = await this.#admit(tool, names.get(tool.name), pins.get(tool.name));
      report.push(entry.report);
      if (entry.tool) tools.push(entry.tool);
    }
    this.#tools = tools;
    this.#report = report;
    this.#emit({
      type: "mcp.listed",
      server: this.name,
      available: tools.length,
      withheld: report.length - tools.length,
    });
    for (const listener of this.#listeners) {
      // One listener's failure must not keep the others from hearing of the change.
      try {
        listener();
      } catch (error) {
        this.#logger.error({ err: error, server: this.name }, "an MCP import listener failed");
      }
    }
  }

  /** One upstream tool: named, pinned or checked against its pin, classified and declared — or withheld. */
  async #admit(
    upstream: UpstreamTool,
    named: NameOutcome | undefined,
    pin: ToolPin | undefined,
  ): Promise<{ tool?: AnyTool; report: ImportedToolReport }> {
    const withheld = (reason: string, name?: string) => {
      this.#emit({ type: "mcp.withheld", server: this.name, tool: upstream.name, reason });
      return {
        report: {
          tool: upstream.name,
          name,
          effect: undefined,
          basis: undefined,
          status: "withheld" as const,
          reason,
        },
      };
    };
    if (!named?.ok) return withheld(named?.reason ?? "no name");
    const definition = pinnedDefinitionOf(upstream);
    const hash = definitionHash(definition);
    let drifted = false;
    if (!pin) {
      await this.#pins.put({
        server: this.name,
        tool: upstream.name,
        hash,
        definition,
        acceptedAt: this.#now(),
        acceptedBy: "first import",
      });
    } else if (pin.hash !== hash) {
      drifted = true;
      if (pin.offered?.hash !== hash) {
        await this.#pins.offer(this.name, upstream.name, { hash, definition, seenAt: this.#now() });
      }
      const withhold = (this.#options.onDrift ?? "withhold") === "withhold";
      this.#emit({
        type: "mcp.drift",
        server: this.name,
        tool: upstream.name,
        name: named.name,
        acceptedHash: pin.hash,
        offeredHash: hash,
        withheld: withhold,
      });
      if (withhold) {
        return {
          report: {
            tool: upstream.name,
            name: named.name,
            effect: undefined,
            basis: undefined,
            status: "drifted",
            reason: `its definition changed since it was accepted; run toolreg mcp accept ${this.name} ${upstream.name}`,
          },
        };
      }
    } else if (pin.offered) {
      // The upstream went back to what was accepted: nothing is waiting any more.
      await this.#pins.offer(this.name, upstream.name, undefined);
    }
    const configured = this.#options.effects?.[upstream.name];
    let classification = classifyEffect(upstream.annotations, configured);
    let hints = importedHints(upstream.annotations);
    if (drifted && pin) {
      // A changed tool served anyway (onDrift: report) keeps the more dangerous of its accepted and new
      // readings: an upstream cannot turn a write into a read, nor drop a caution, by changing its hints.
      const acceptedAnnotations = pin.definition.annotations as ToolAnnotations | undefined;
      hints = { ...importedHints(acceptedAnnotations), ...hints };
      const accepted = classifyEffect(acceptedAnnotations);
      if (!configured && EFFECTS.indexOf(accepted.effect) > EFFECTS.indexOf(classification.effect))
        classification = accepted;
    }
    try {
      const tool = this.#declare(upstream, named.name, { effect: classification.effect, hints }, hash);
      return {
        tool,
        report: {
          tool: upstream.name,
          name: named.name,
          effect: classification.effect,
          basis: classification.basis,
          status: drifted ? "drifted" : "available",
        },
      };
    } catch (error) {
      return withheld(messageOf(error), named.name);
    }
  }

  /** `hash` is the definition's pin hash, which also seeds the nonce its schema prose is neutralised with. */
  #declare(
    upstream: UpstreamTool,
    name: string,
    { effect, hints }: { effect: Effect; hints: ToolHints },
    hash: string,
  ): AnyTool {
    const source: ToolProvenance = `mcp:${this.name}`;
    const connection = this.#connection;
    const description = upstream.description?.trim() || `${upstream.name}, from the MCP server ${this.name}.`;
    const timeoutMs = this.#options.timeoutMs ?? 30_000;
    const callers = this.#callers;
    const artifacts = this.#options.artifacts;
    const nonce = hash.slice(0, 16);
    return defineTool({
      name,
      description,
      category: this.#options.category ?? "general",
      effect,
      hints,
      input: neutralisedSchema(upstream.inputSchema, nonce),
      scopes: this.#options.scopes ?? [],
      provenance: source,
      limits: { timeoutMs },
      ...(upstream.outputSchema ? { output: importedOutputSchema(upstream.outputSchema, nonce) } : {}),
      run: async (input, context) => {
        let result: Awaited<ReturnType<UpstreamConnection["callTool"]>>;
        const callOn = (on: UpstreamConnection) =>
          on.callTool(upstream.name, input, {
            signal: context.signal,
            // The seam aborts the signal at the call's deadline; this bounds the request on its own too.
            timeoutMs,
            mayHaveActed: changesData(effect),
          });
        // While it runs, what the upstream asks on its connection is put to this call's own client;
        // OAuth calls enter the callers of the connection they go out on (per user, the user's own).
        if (this.#oauthCalls) result = await this.#oauthCalls.call(context, name, callOn);
        else {
          const release = callers.enter(context);
          try {
            result = await callOn(connection);
          } finally {
            release();
          }
        }
        return toToolOutput(result, {
          source: `${source}/${upstream.name}`,
          toolName: name,
          declaresOutput: upstream.outputSchema !== undefined,
          tenantId: context.tenantId,
          artifacts,
          // Half the cap, so the text and the structured data keep room beside the images.
          inlineBudget: Math.floor(DEFAULT_LIMITS.outputBytes / 2),
        });
      },
    });
  }

  async #openTransport(): Promise<Transport> {
    const transport = this.#options.transport;
    if (transport.kind === "stdio") {
      const env: Record<string, string> = { ...getDefaultEnvironment(), ...transport.env };
      for (const [variable, ref] of Object.entries(transport.envCredentials ?? {})) {
        env[variable] = await this.#resolve(ref);
      }
      const stdio = new StdioClientTransport({
        command: transport.command,
        args: [...(transport.args ?? [])],
        env,
        ...(transport.cwd ? { cwd: transport.cwd } : {}),
        stderr: "pipe",
      });
      // Drained, so a chatty server never blocks on a full pipe; kept at debug level.
      stdio.stderr?.on("data", (chunk: Buffer) =>
        this.#logger.debug(
          { server: this.name, stderr: chunk.toString("utf8").slice(0, 2_000) },
          "MCP server stderr",
        ),
      );
      return stdio;
    }
    const url = new URL(transport.url);
    if (this.#authorization) {
      const { fetch, provider } = this.#authorization;
      return new StreamableHTTPClientTransport(url, { fetch, authProvider: provider });
    }
    this.#egress ??= createEgressClient({
      policy: {
        ...transport.egress,
        ...(transport.credential ? { credentials: { [url.hostname]: transport.credential } } : {}),
      },
    });
    const caller = {
      credentials: this.#options.credentials ?? { resolve: () => Promise.reject(new Error("no resolver")) },
      tenantId: "deployment",
      principalId: `mcp:${this.name}`,
    };
    return new StreamableHTTPClientTransport(url, { fetch: egressFetch(this.#egress, caller) });
  }

  async #resolve(ref: string): Promise<string> {
    const resolver = this.#options.credentials;
    if (!resolver)
      throw new Error(`the MCP server ${this.name} needs the credential "${ref}" and no resolver was given`);
    return resolver.resolve(ref, { tenantId: "deployment", principalId: `mcp:${this.name}` });
  }

  #authorizationOf(options: McpImportOptions): ImportAuthorization | undefined {
    const { transport } = options;
    if (transport.kind !== "http" || !transport.oauth) return undefined;
    if (!options.oauthHost) {
      throw new TypeError(
        `mcpServer ${options.name}: OAuth needs a host that keeps credentials and asks for consent (oauthHost)`,
      );
    }
    return new ImportAuthorization({
      ...this.#authorizationInput(transport, options.oauthHost, transport.oauth),
      onAuthorization: (pending) =>
        this.#emit({
          type: "mcp.authorization_required",
          server: this.name,
          principalId: pending.principalId,
          consentUrl: pending.consentUrl,
        }),
      // New tokens: connect if the first connection waited for them, and list again.
      onAuthorized: () => {
        this.start().catch((error: unknown) =>
          this.#logger.warn({ err: error, server: this.name }, "connecting after consent failed"),
        );
      },
    });
  }

  /** What every authorization of the import shares: its server, egress, stores and clock. */
  #authorizationInput(
    transport: HttpTransportConfig,
    host: McpOAuthHost,
    settings: McpOAuthSettings,
  ): Omit<ImportAuthorizationInput, "onAuthorization" | "onAuthorized"> {
    return {
      server: this.name,
      url: new URL(transport.url),
      egress: transport.egress,
      settings,
      host,
      now: this.#now,
      resolveSecret: (ref) => this.#resolve(ref),
    };
  }

  /** OAuth's call routing; per user, each caller's own connection beside the listing one. */
  #oauthCallsOf(options: McpImportOptions): OAuthCalls | undefined {
    const { transport, oauthHost } = options;
    const authorization = this.#authorization;
    if (transport.kind !== "http" || !transport.oauth || !oauthHost || !authorization) return undefined;
    const settings = transport.oauth;
    const users =
      settings.per === "user"
        ? new UserConnections({
            server: options.name,
            max: settings.userConnections?.max,
            idleMs: settings.userConnections?.idleMs,
            now: this.#now,
            authorize: (user) =>
              new ImportAuthorization({
                ...this.#authorizationInput(transport, oauthHost, { ...settings, ...user }),
                // The link is the caller's answer (auth_required), not the operator's to pass on.
                onAuthorization: () => {},
                onAuthorized: () => {},
              }),
            connect: ({ fetch, provider }, callers) =>
              new UpstreamConnection(
                options.name,
                async () =>
                  new StreamableHTTPClientTransport(new URL(transport.url), {
                    fetch,
                    authProvider: provider,
                  }),
                // The listing connection alone hears of tool changes and speaks for the server's health.
                { onToolsChanged: () => {}, onDisconnected: () => {}, onReconnectFailed: () => {} },
                callers,
                options.reconnect,
              ),
            onClosed: (user, reason) =>
              this.#emit({ type: "mcp.user_connection_closed", server: this.name, ...user, reason }),
          })
        : undefined;
    return new OAuthCalls({
      server: options.name,
      settings,
      listing: { authorization, connection: this.#connection, callers: this.#callers },
      users,
    });
  }

  #emit(event: McpImportEvent): void {
    if (event.type === "mcp.drift" || event.type === "mcp.withheld") this.#logger.warn(event, event.type);
    else this.#logger.info(event, event.type);
    try {
      this.#options.onEvent?.(event);
    } catch (error) {
      this.#logger.error({ err: error, server: this.name }, "an MCP import event listener failed");
    }
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
