/**
 * @module The registry as an MCP server: `tools/list` is what the caller may see, `tools/call` goes
 * through the seam, the tenant's skills are its prompts, and registry changes reach the client as `notifications/tools/list_changed`.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  type CreateTaskResult,
  ErrorCode,
  ListToolsRequestSchema,
  type LoggingLevel,
  LoggingLevelSchema,
  McpError,
  type ServerNotification,
  type ServerRequest,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { context as otelContext } from "@opentelemetry/api";
import type { SkillStore } from "../../ports/skill-store.js";
import type { ToolRegistry } from "../../registry/registry.js";
import type { ExecutionContext } from "../../seam/context.js";
import { approvalIdOf, type Envelope } from "../../seam/envelope.js";
import type { Seam } from "../../seam/seam.js";
import { contextOfMcpRequest } from "../../telemetry/trace-context.js";
import { approveByElicitation, canElicit } from "./approve-by-elicitation.js";
import { callToolResult } from "./call-tool-result.js";
import { type McpClientChannel, openMcpClient } from "./client-channel.js";
import { serveSkillPrompts } from "./prompts/skill-prompts.js";
import type { McpResourceSource } from "./resources/resource-source.js";
import { serveResources } from "./resources/serve-resources.js";
import { type CallTaskRun, type McpTaskOptions, runCallTask } from "./run-call-task.js";
import { DEFAULT_PAGE_SIZE, toolListPage } from "./tool-list-page.js";

/** What the host gets to build a request's context from: who is asking comes from the host's own state. */
export interface McpRequestInfo {
  /** Fresh per request: MCP requests carry no id the seam could key a call on across sessions. */
  toolCallId: string;
  signal: AbortSignal;
  /** The client's key for a `tools/call` (`_meta["toolreg/idempotencyKey"]`), so a retry does not run it twice. */
  idempotencyKey?: string;
}

/** Where a client names a call's idempotency key: MCP has no header for it, and `_meta` travels on any transport. */
export const IDEMPOTENCY_KEY_META = "toolreg/idempotencyKey";
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;

export interface McpServerOptions {
  seam: Seam;
  context(request: McpRequestInfo): ExecutionContext;
  /** The registry behind the seam; when given, its changes are announced to the client. */
  registry?: Pick<ToolRegistry, "onUpdate">;
  pageSize?: number;
  /**
   * Whether a call that parks for approval is put to the client's user, when the client can show a form
   * (`elicitation`): accepting approves it as the caller. On unless the host says otherwise; a host whose
   * callers may not decide their own requests turns it off, or says per parked tool (its own questions).
   */
  elicitApprovals?: boolean | ((toolName: string) => boolean);
  /** Runs each `tools/call`, so a host can count the calls in flight; called as is when not given. */
  track?<T>(call: () => Promise<T>): Promise<T>;
  /**
   * Calls a client asks for as tasks (`params.task`) are answered at once with the task, run in the
   * background and kept for the caller; without this, no `tasks` capability is declared.
   */
  tasks?: McpTaskOptions;
  /**
   * Resources beside each visible tool's docs page (`toolreg://tools/{name}/docs`): kept outputs,
   * artifacts, the host's own (`defineMcpResources`); see resources/serve-resources.ts.
   */
  resources?: readonly McpResourceSource[];
  /**
   * The deployment's skills, served as prompts of the caller's tenant (each read through the seam's
   * `load_skill`); without it no `prompts` capability is declared.
   */
  skills?: SkillStore;
}

/** Log levels from least to most severe, as MCP orders them. */
const SEVERITY: readonly LoggingLevel[] = LoggingLevelSchema.options;

/**
 * A low-level SDK server, since the tool list is not fixed: it is read from the seam on every request.
 * The server's `onclose` unsubscribes from the registry; chain it rather than replace it.
 */
export function createMcpServer(options: McpServerOptions): Server {
  const tasks = options.tasks;
  const server = new Server(
    { name: "toolreg", version: packageVersion() },
    {
      capabilities: {
        tools: { listChanged: true },
        logging: {},
        ...(tasks ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : {}),
      },
      // The SDK answers tasks/get, tasks/result, tasks/list and tasks/cancel from the caller's own tasks.
      ...(tasks ? { taskStore: tasks.tasks.storeFor(tasks.owner) } : {}),
    },
  );
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const elicitApprovals = options.elicitApprovals ?? true;
  const contextFor = (signal: AbortSignal) => options.context({ toolCallId: randomUUID(), signal });

  // One server per session (or per stateless request), so the level the client sets is simply this one.
  let logLevel: LoggingLevel | undefined;
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    logLevel = request.params.level;
    return {};
  });

  server.setRequestHandler(ListToolsRequestSchema, (request, extra) =>
    toolListPage(
      options.seam.visibleTools(contextFor(extra.signal)),
      request.params?.cursor,
      pageSize,
      tasks !== undefined,
    ),
  );
  const callTool = async (
    request: CallToolRequest,
    extra: CallExtra,
  ): Promise<CallToolResult | CreateTaskResult> => {
    const idempotencyKey = request.params._meta?.[IDEMPOTENCY_KEY_META];
    if (
      idempotencyKey !== undefined &&
      (typeof idempotencyKey !== "string" || !IDEMPOTENCY_KEY.test(idempotencyKey))
    ) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `${IDEMPOTENCY_KEY_META} must be 1–200 visible ASCII characters`,
      );
    }
    // A task outlives its request: its call runs under the task's signal, which tasks/cancel aborts.
    const task =
      tasks && request.params.task ? await extra.taskStore?.createTask(request.params.task) : undefined;
    const context = options.context({
      toolCallId: randomUUID(),
      signal: task && tasks ? tasks.tasks.signalOf(task.taskId) : extra.signal,
      ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    });
    const { name, arguments: input = {} } = request.params;
    if (task && tasks) {
      startTask(server, tasks, { taskId: task.taskId, seam: options.seam, context, name, input, track });
      return { task };
    }
    // Made only if the tool asks for the client, and then once for the call and its approval.
    let channel: McpClientChannel | undefined;
    const makeChannel = () => {
      channel ??= clientChannel(server, extra, () => logLevel);
      return channel;
    };
    let release = openMcpClient(context, makeChannel);
    let envelope: Envelope;
    try {
      envelope = await options.seam.call(context, name, input);
    } finally {
      release();
    }
    const approvalId = approvalIdOf(envelope);
    const elicits = typeof elicitApprovals === "function" ? elicitApprovals(name) : elicitApprovals;
    if (approvalId !== undefined && elicits && canElicit(server)) {
      const parked = { name, input, approvalId, envelope };
      // The approved call runs as the first attempt did: with the client at hand.
      release = openMcpClient(context, makeChannel);
      try {
        envelope = await approveByElicitation(server, options.seam, context, parked, extra);
      } finally {
        release();
      }
    }
    return callToolResult(context.toolCallId, name, envelope);
  };
  const track = options.track ?? (<T>(call: () => Promise<T>) => call());
  // In the caller's trace (its `_meta`, else its HTTP headers): the call, its approval's resume and a
  // task's background run are all started inside it, so each is that trace's.
  const runCall = <T>(meta: unknown, extra: CallExtra, call: () => Promise<T>): Promise<T> =>
    otelContext.with(contextOfMcpRequest(meta, extra.requestInfo?.headers), () => track(call));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    runCall(request.params._meta, extra, () => callTool(request, extra)),
  );

  const unsubscribe = options.registry?.onUpdate(() => {
    // Before a client connects there is no one to tell; it reads the current list when it lists.
    server.sendToolListChanged().catch(() => {});
  });
  server.onclose = () => unsubscribe?.();
  // After onclose is set: it chains its own stop to it.
  serveResources(server, { ...options, promptsServed: options.skills !== undefined }, contextFor);
  if (options.skills) {
    // A prompt is read by calling load_skill through the seam, as a tools/call would.
    serveSkillPrompts(server, {
      seam: options.seam,
      skills: options.skills,
      pageSize,
      contextFor,
      run: runCall,
    });
  }
  return server;
}

type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Runs a call as its task, after its request is answered. The task's changes go to this server's client
 * while it is connected; a stateless request's server is gone at once, and its client polls.
 */
function startTask(server: Server, tasks: McpTaskOptions, run: CallTaskRun): void {
  tasks.tasks.watch(run.taskId, (task) => {
    server.notification({ method: "notifications/tasks/status", params: task }).catch(() => {});
  });
  runCallTask(tasks, run).catch((error: unknown) =>
    run.context.logger.error({ err: error, taskId: run.taskId }, "an MCP task's call failed unanswered"),
  );
}

/** The client of one `tools/call`: what it sends goes on that request's stream, related to it. */
function clientChannel(
  server: Server,
  extra: CallExtra,
  logLevel: () => LoggingLevel | undefined,
): McpClientChannel {
  const progressToken = extra._meta?.progressToken;
  const related = { relatedRequestId: extra.requestId, signal: extra.signal };
  return {
    capabilities: server.getClientCapabilities(),
    async progress(progress, total, message) {
      if (progressToken === undefined) return;
      await extra.sendNotification({
        method: "notifications/progress",
        params: { progressToken, progress, total, message },
      });
    },
    async log(level, data) {
      const threshold = logLevel();
      if (threshold !== undefined && SEVERITY.indexOf(level) < SEVERITY.indexOf(threshold)) return;
      await extra.sendNotification({ method: "notifications/message", params: { level, data } });
    },
    createMessage: (params) => server.createMessage(params, related),
    elicitInput: (params) => server.elicitInput({ ...params, mode: "form" }, related),
    listRoots: () => server.listRoots(undefined, related),
  };
}

let version: string | undefined;

/** The package's version, read once; the same relative path holds from `src/` and from `dist/`. */
function packageVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
      version: string;
    }
  ).version;
  return version;
}
