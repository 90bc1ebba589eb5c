/**
 * @module A registry server over one deployment's stores (a SQLite file, or PostgreSQL that instances share):
 * the seam's stores and the auth store, the audit trail feeding the event stream, registry revisions too.
 */
import { hostname } from "node:os";
import type { Hono } from "hono";
import { instanceToken } from "../mcp/serve/mcp-http-sessions.js";
import { artifactResources } from "../mcp/serve/resources/artifact-resources.js";
import { keptOutputResources } from "../mcp/serve/resources/kept-output-resources.js";
import type { McpResourceSource } from "../mcp/serve/resources/resource-source.js";
import type { ApprovalPolicy, Authorizer, Ceilings, Toolsets } from "../policy/ports.js";
import type { ArtifactStore } from "../ports/artifact-store.js";
import type { AuthStore } from "../ports/auth-store.js";
import type { DeploymentStores } from "../ports/deployment-stores.js";
import type { EventBus } from "../ports/event-bus.js";
import type { KnowledgeBase, KnowledgeIntake } from "../ports/knowledge-base.js";
import { TODO_RETENTION_MS } from "../ports/todo-store.js";
import { TOOLKIT_RECORD_RETENTION_MS } from "../ports/toolkit-record-store.js";
import type { ToolRegistry } from "../registry/registry.js";
import type { AuditFailureMode } from "../seam/audit-guard.js";
import type { Logger } from "../seam/context.js";
import type { OutputStore } from "../seam/output-store.js";
import { Seam } from "../seam/seam.js";
import { openSqliteDeployment } from "../stores/sqlite/index.js";
import { observeWaitingApprovals } from "../telemetry/approval-metrics.js";
import { createServerApp } from "./app.js";
import { type AuthFailureSettings, AuthFailures } from "./auth-failures.js";
import { serveBusDiscovery } from "./bus-discovery.js";
import { checkOrigin } from "./cors-allow-list.js";
import { approvalEventOf, EventHub } from "./event-hub.js";
import { InflightCalls } from "./inflight-calls.js";
import { hearInstances, tellApproval, tellSchedulePrompt, tellToolUpdate } from "./instance-events.js";
import { VerifiedKeys } from "./key-cache.js";
import { ManifestCache } from "./manifest.js";
import { type OAuthServerOptions, openOAuthServer } from "./oauth/oauth-server.js";
import { BODY_TIMEOUT_MS } from "./read-json-body.js";
import { startScheduler } from "./scheduler.js";
import { openServerCredentials, type ServerCredentialsOptions } from "./server-credentials.js";
import type { ServerDeps } from "./server-deps.js";
import type { ServerEnv } from "./server-env.js";

export interface RegistryServerOptions {
  registry: ToolRegistry;
  /**
   * Approvals, idempotency records, the audit trail, API keys, pins and credentials: the path of a SQLite
   * file, or stores already opened (`openPostgresDeployment`). The server closes them.
   */
  store: string | DeploymentStores;
  logger: Logger;
  outputs?: OutputStore;
  /** Where the tools' generated files are kept: `/mcp` serves them as `artifact://` resources. */
  artifacts?: ArtifactStore;
  /** The host's own MCP resources (`defineMcpResources`), served by `/mcp` beside toolreg's. */
  mcpResources?: readonly McpResourceSource[];
  authorizer?: Authorizer;
  toolsets?: Toolsets;
  approvalPolicy?: ApprovalPolicy;
  allowSelfApproval?: boolean;
  consoleDir?: string;
  /** How long a request body may take to arrive; 10 s unless given. */
  bodyTimeoutMs?: number;
  /** How often expired approvals, and idempotency records and todo lists past retention, are swept; 60 s unless given. */
  sweepIntervalMs?: number;
  /** How often the scheduler looks for due schedules (schedule_create's); 1 s unless given. */
  schedulerIntervalMs?: number;
  /** How long a parked call waits for a decision; the seam's 7 days unless given. */
  approvalTtlMs?: number;
  /** Rate limits on tool calls (step 5 of the seam); none unless given. */
  ceilings?: Ceilings;
  /** Throttles failed authentication per client address; off unless given (`toolreg serve` gives 20/min). */
  authFailures?: AuthFailureSettings;
  /** While audit events cannot be written: refuse calls that change data (default) or run them with an alert. */
  onAuditFailure?: AuditFailureMode;
  /** Stored credentials and the users' consent, sealed under the operator's key; none unless given. */
  credentials?: ServerCredentialsOptions;
  /**
   * The bus the deployment's instances share (NATS): approvals and key revocations reach every instance,
   * revisions are announced as `tool.update`, and `tool.query` is answered. The caller closes it.
   */
  bus?: EventBus;
  /** Origins whose pages may call `/mcp` and the OAuth endpoints (`--cors-origin`); none unless given. */
  corsOrigins?: readonly string[];
  /** The origin users and OAuth clients reach the server at, when not the one requests are sent to (a proxy). */
  publicUrl?: string;
  /** How the OAuth endpoints fetch client ID metadata documents and bound registration; defaults otherwise. */
  oauth?: OAuthServerOptions;
  /**
   * Names this process: in the claims of the calls it runs, and hashed (`instance`) in the MCP session ids
   * it gives. `host:pid` unless given.
   */
  holder?: string;
  /** Makes what adds sources to the stores' knowledge base (reading, chunking, embedding): serves /api/v1/kb. */
  knowledge?: (base: KnowledgeBase) => KnowledgeIntake;
}

export interface RegistryServer {
  app: Hono<ServerEnv>;
  seam: Seam;
  auth: AuthStore;
  deps: ServerDeps;
  /** The token this instance's MCP session ids begin with, for a load balancer to route by. */
  instance: string;
  /** Closes the stores; call after the listener has drained. */
  close(): Promise<void>;
}

export function openRegistryServer(options: RegistryServerOptions): RegistryServer {
  // Before anything opens: a malformed origin is the caller's mistake, with nothing to close.
  const corsOrigins = new Set((options.corsOrigins ?? []).map(checkOrigin));
  const stores =
    typeof options.store === "string"
      ? openSqliteDeployment(options.store, { credentialsKey: options.credentials?.key })
      : options.store;
  const { auth } = stores;
  const { bus } = options;
  const hub = new EventHub();
  // Named here rather than left to the seam's default, so the MCP session ids can carry its hash.
  const holder = options.holder ?? `${hostname()}:${process.pid}`;
  let credentials: ReturnType<typeof openServerCredentials> | undefined;
  if (options.credentials) {
    if (!stores.sealed) {
      // Stores handed over are the server's to close, even when it cannot start.
      stores.close().catch(() => {});
      throw new Error("registry server: credentials need stores opened with the credentials key");
    }
    credentials = openServerCredentials(stores.sealed, options.registry.view(), options.credentials);
  }
  const seam = new Seam({
    registry: options.registry.view(),
    logger: options.logger,
    holder,
    ...(options.onAuditFailure ? { onAuditFailure: options.onAuditFailure } : {}),
    stores,
    // Every approval the seam records reaches the streams, however it was written (with the parking or
    // the completion it belongs to, or on its own).
    onAuditEvent: (event) => {
      const approval = approvalEventOf(event);
      if (!approval) return;
      hub.publish(approval);
      if (bus) tellApproval(bus, approval);
    },
    ...(options.outputs ? { outputs: options.outputs } : {}),
    ...(options.authorizer ? { authorizer: options.authorizer } : {}),
    ...(options.toolsets ? { toolsets: options.toolsets } : {}),
    ...(options.approvalPolicy ? { approvalPolicy: options.approvalPolicy } : {}),
    ...(options.approvalTtlMs ? { approvalTtlMs: options.approvalTtlMs } : {}),
    ...(options.ceilings ? { ceilings: options.ceilings } : {}),
    ...(credentials ? { consent: credentials.consent } : {}),
  });
  const stopListening = options.registry.onUpdate((event) => {
    hub.publish(event);
    if (bus) tellToolUpdate(bus, event);
  });
  const keys = new VerifiedKeys(auth);
  const oauth = openOAuthServer(
    { auth, keys, bus },
    { trustProxy: options.authFailures?.trustProxy ?? 0, ...options.oauth },
  );
  const deps: ServerDeps = {
    registry: options.registry,
    seam,
    stores,
    auth,
    keys,
    hub,
    manifests: new ManifestCache(),
    inflight: new InflightCalls(),
    instance: instanceToken(holder),
    logger: options.logger,
    allowSelfApproval: options.allowSelfApproval ?? false,
    bodyTimeoutMs: options.bodyTimeoutMs ?? BODY_TIMEOUT_MS,
    credentials: credentials?.resolver,
    credentialStore: credentials?.store,
    consentBinding: credentials?.binding,
    attachments: stores.attachments,
    skills: stores.skills,
    schedules: stores.schedules,
    corsOrigins,
    oauth,
    knowledge: options.knowledge
      ? { base: stores.knowledge, intake: options.knowledge(stores.knowledge) }
      : undefined,
    mcpResources: [
      ...(options.outputs ? [keptOutputResources(options.outputs, seam)] : []),
      ...(options.artifacts ? [artifactResources(options.artifacts)] : []),
      ...(options.mcpResources ?? []),
    ],
  };
  const stopHearing = bus ? hearInstances(bus, hub, keys, options.logger) : undefined;
  const stopAnswering = bus ? serveBusDiscovery(bus, deps) : undefined;
  const app = createServerApp(deps, {
    ...(options.consoleDir ? { consoleDir: options.consoleDir } : {}),
    ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
    ...(options.authFailures ? { authFailures: new AuthFailures(options.authFailures) } : {}),
  });
  // Housekeeping, as the CLI does on open: expired approvals leave the inbox, old keys stop replaying,
  // the todo lists of runs long over go, toolkits' records past their retention, and expired attachments
  // with the bytes nothing names any more.
  const sweep = () => {
    seam.sweep().catch((error: unknown) => options.logger.warn({ err: error }, "sweep failed"));
    stores.todos
      .purge({ before: Date.now() - TODO_RETENTION_MS })
      .catch((error: unknown) => options.logger.warn({ err: error }, "todo purge failed"));
    stores.records
      .purge({ before: Date.now() - TOOLKIT_RECORD_RETENTION_MS })
      .catch((error: unknown) => options.logger.warn({ err: error }, "toolkit record purge failed"));
    stores.attachments
      .purgeExpired({ now: Date.now() })
      .catch((error: unknown) => options.logger.warn({ err: error }, "attachment purge failed"));
  };
  // What a crash left among the attachments is repaired once, as the stores open.
  stores.attachments
    .reconcile()
    .then(
      (repaired) =>
        (repaired.orphanBlobs > 0 || repaired.missingBlobs > 0) &&
        options.logger.warn(repaired, "attachments reconciled after a crash"),
    )
    .catch((error: unknown) => options.logger.warn({ err: error }, "attachment reconcile failed"));
  sweep();
  const sweeper = setInterval(sweep, options.sweepIntervalMs ?? 60_000);
  sweeper.unref();
  // Scheduled calls run through this seam as their makers, with the grant they have when they fire.
  const scheduler = startScheduler({
    schedules: stores.schedules,
    seam,
    auth,
    audit: stores.audit,
    publish: (event) => {
      hub.publish(event);
      if (bus) tellSchedulePrompt(bus, event);
    },
    logger: options.logger,
    holder,
    credentials: credentials?.resolver,
    ...(options.schedulerIntervalMs ? { intervalMs: options.schedulerIntervalMs } : {}),
  });
  // Through whatever MeterProvider the host process has (toolreg serve's OTLP export, or the host's own).
  const stopObserving = observeWaitingApprovals(stores.approvals, { logger: options.logger });
  return {
    app,
    seam,
    auth,
    deps,
    instance: deps.instance,
    async close() {
      clearInterval(sweeper);
      await scheduler.stop();
      stopObserving();
      stopListening();
      stopHearing?.();
      stopAnswering?.();
      await stores.close();
    },
  };
}
