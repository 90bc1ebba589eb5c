/**
 * @module The tool calls an instance runs as MCP tasks (spec 2025-11-25, "tasks"): each belongs to the
 * caller that asked for it (an API key over HTTP, the operator on stdio), outlives the request and the
 * session it was asked in, and is kept in this process's memory for its ttl. The SDK's `tasks/*` handlers
 * read them through `storeFor(owner)`, so another caller's task is simply not found.
 */
import { randomUUID } from "node:crypto";
import {
  type CreateTaskOptions,
  isTerminal,
  type TaskStore,
} from "@modelcontextprotocol/sdk/experimental/tasks";
import {
  type CallToolResult,
  ErrorCode,
  McpError,
  type Result,
  type Task,
} from "@modelcontextprotocol/sdk/types.js";

/** How often a client is asked to poll: `tasks/result` also re-reads a running task this often. */
export const TASK_POLL_INTERVAL_MS = 1_000;
/** A task's life when the client names none: a day, long enough for most approvals to be decided. */
const DEFAULT_TTL_MS = 24 * 60 * 60_000;
/** At most as long as an approval lives by default (a week); at least a minute, to read the result in. */
const MAX_TTL_MS = 7 * 24 * 60 * 60_000;
const MIN_TTL_MS = 60_000;
const PAGE_SIZE = 100;

/** What `tasks/cancel` does besides stopping the run: withdraws what the call waits on; the message says what became of it. */
export type CancelHook = () => Promise<string | undefined>;

interface Entry {
  owner: string;
  task: Task;
  expiresAt: number;
  /** Aborted by `tasks/cancel`, by the ttl passing and by `close`: the context signal of the call. */
  abort: AbortController;
  result?: CallToolResult;
  cancel?: CancelHook;
  /** Tells the client that asked of each change (`notifications/tasks/status`), while it is connected. */
  notify?: (task: Task) => void;
}

export interface McpCallTasksOptions {
  /** Tasks one owner may hold; past this the oldest finished one is dropped, or a new one refused. 1,000 unless given. */
  perOwner?: number;
  now?: () => number;
}

export class McpCallTasks {
  readonly #entries = new Map<string, Entry>();
  readonly #perOwner: number;
  readonly #now: () => number;

  constructor(options: McpCallTasksOptions = {}) {
    this.#perOwner = options.perOwner ?? 1_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The SDK's task store as `owner` sees it: the session id the SDK passes is ignored, since a task is
   * the caller's, whichever session or stateless request asks after it.
   */
  storeFor(owner: string): TaskStore {
    const mine = (taskId: string) => {
      this.#sweep();
      const entry = this.#entries.get(taskId);
      return entry?.owner === owner ? entry : undefined;
    };
    const found = (taskId: string) => {
      const entry = mine(taskId);
      if (!entry) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
      return entry;
    };
    return {
      createTask: async (params: CreateTaskOptions) => this.#create(owner, params.ttl),
      getTask: async (taskId) => {
        const entry = mine(taskId);
        return entry ? { ...entry.task } : null;
      },
      storeTaskResult: async (taskId, _status, result) => {
        found(taskId);
        this.finish(taskId, result as CallToolResult);
      },
      getTaskResult: async (taskId): Promise<Result> => {
        const entry = found(taskId);
        if (entry.result && entry.task.status !== "cancelled") return entry.result;
        throw new McpError(
          ErrorCode.InvalidParams,
          `task ${taskId} is ${entry.task.status}${entry.task.statusMessage ? `: ${entry.task.statusMessage}` : ""}; it has no result`,
        );
      },
      updateTaskStatus: async (taskId, status, statusMessage) => {
        const entry = found(taskId);
        if (status === "cancelled") await this.#cancel(entry);
        else this.#set(entry, status, statusMessage);
      },
      listTasks: async (cursor) => {
        this.#sweep();
        const owned = [...this.#entries].filter(([, entry]) => entry.owner === owner);
        const start = cursor === undefined ? 0 : owned.findIndex(([id]) => id === cursor) + 1;
        if (start === 0 && cursor !== undefined)
          throw new Error("the cursor is not one this server gave out");
        const page = owned.slice(start, start + PAGE_SIZE);
        const last = page.at(-1)?.[0];
        return {
          tasks: page.map(([, entry]) => ({ ...entry.task })),
          ...(start + PAGE_SIZE < owned.length && last ? { nextCursor: last } : {}),
        };
      },
    };
  }

  /** The signal a task's call runs under: aborted when it is cancelled, outlives its ttl, or the host closes. */
  signalOf(taskId: string): AbortSignal {
    return this.#entries.get(taskId)?.abort.signal ?? AbortSignal.abort();
  }

  /** Where a task's changes are told: the server of the request that asked for it. */
  watch(taskId: string, notify: (task: Task) => void): void {
    const entry = this.#entries.get(taskId);
    if (entry) entry.notify = notify;
  }

  /** What cancelling the task withdraws from now on; `undefined`: nothing to withdraw, only the run to stop. */
  onCancel(taskId: string, hook: CancelHook | undefined): void {
    const entry = this.#entries.get(taskId);
    if (!entry) return;
    if (hook) entry.cancel = hook;
    else delete entry.cancel;
  }

  /** A running task's new status message (it stays `working`); a finished or cancelled one is left as it is. */
  report(taskId: string, statusMessage: string): void {
    const entry = this.#entries.get(taskId);
    if (entry) this.#set(entry, "working", statusMessage);
  }

  /**
   * The call's result: `completed`, or `failed` when it is an error, as the spec has it for tool calls. A
   * task cancelled meanwhile stays cancelled, and its result is not kept.
   */
  finish(taskId: string, result: CallToolResult): void {
    const entry = this.#entries.get(taskId);
    if (!entry || isTerminal(entry.task.status)) return;
    entry.result = result;
    this.#set(entry, result.isError ? "failed" : "completed", undefined);
  }

  /** Stops every task's wait and run: the host is stopping. */
  close(): void {
    for (const entry of this.#entries.values()) entry.abort.abort();
    this.#entries.clear();
  }

  #create(owner: string, ttl: number | null | undefined): Task {
    this.#sweep();
    this.#makeRoomFor(owner);
    const now = this.#now();
    const lifetime = Math.min(Math.max(ttl ?? DEFAULT_TTL_MS, MIN_TTL_MS), MAX_TTL_MS);
    const at = new Date(now).toISOString();
    const task: Task = {
      taskId: randomUUID(),
      status: "working",
      ttl: lifetime,
      createdAt: at,
      lastUpdatedAt: at,
      pollInterval: TASK_POLL_INTERVAL_MS,
    };
    this.#entries.set(task.taskId, { owner, task, expiresAt: now + lifetime, abort: new AbortController() });
    return { ...task };
  }

  async #cancel(entry: Entry): Promise<void> {
    // Withdrawn first: a hook that cannot withdraw (the store failing) throws, and the task stays as it was.
    const outcome = await entry.cancel?.();
    delete entry.cancel;
    entry.abort.abort();
    this.#set(entry, "cancelled", outcome ?? "cancelled by its caller");
  }

  #set(entry: Entry, status: Task["status"], statusMessage: string | undefined): void {
    if (isTerminal(entry.task.status)) return;
    const { statusMessage: _previous, ...rest } = entry.task;
    entry.task = {
      ...rest,
      status,
      lastUpdatedAt: new Date(this.#now()).toISOString(),
      ...(statusMessage === undefined ? {} : { statusMessage }),
    };
    entry.notify?.({ ...entry.task });
  }

  #makeRoomFor(owner: string): void {
    const owned = [...this.#entries].filter(([, entry]) => entry.owner === owner);
    if (owned.length < this.#perOwner) return;
    const oldestDone = owned.find(([, entry]) => isTerminal(entry.task.status));
    if (!oldestDone) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `this caller already has ${owned.length} tasks running; wait for some to finish or cancel them`,
      );
    }
    this.#entries.delete(oldestDone[0]);
  }

  /** Tasks past their ttl go, finished or not (the spec allows it); a waiting call stops waiting. */
  #sweep(): void {
    const now = this.#now();
    for (const [id, entry] of this.#entries) {
      if (entry.expiresAt > now) continue;
      entry.abort.abort();
      this.#entries.delete(id);
    }
  }
}
