/**
 * @module The parent side of the SQLite process: a persistent child, one request at a time, killed and
 * replaced when a request passes its time limit or is aborted. Idle, it does not keep the host alive.
 */
import { type ChildProcess, fork } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ToolFailure } from "../../../errors/tool-failure.js";
import type {
  SqliteErrorInfo,
  SqliteProcessConfig,
  SqliteReply,
  SqliteRequest,
  SqliteRequestBody,
} from "./sqlite-process.js";

/** Starting node and opening the file takes well under a second; past this something is wrong. */
const STARTUP_TIMEOUT_MS = 15_000;

interface Job {
  id: number;
  body: SqliteRequestBody;
  timeoutMs: number;
  signal: AbortSignal | undefined;
  resolve(result: unknown): void;
  reject(error: ToolFailure): void;
  timer: NodeJS.Timeout | undefined;
  onAbort: (() => void) | undefined;
}

/** The child's entry: the compiled `.js` beside this file, or the `.ts` source run through tsx in tests. */
function entryPoint(): { path: string; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith(".ts");
  const path = fileURLToPath(
    new URL(fromSource ? "./sqlite-process.ts" : "./sqlite-process.js", import.meta.url),
  );
  if (!fromSource) return { path, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
  return { path, execArgv: ["--import", tsx] };
}

/** Maps an SQLite error to an envelope code: the statement's fault is invalid_input, the rest upstream. */
export function sqliteFailure(error: SqliteErrorInfo): ToolFailure {
  const code = error.code ?? "";
  const details = { dialect: "sqlite", code: error.code ?? error.name };
  const statementFault =
    /^SQLITE_(ERROR|READONLY|CONSTRAINT|MISMATCH|RANGE|TOOBIG|AUTH)/.test(code) ||
    // better-sqlite3's own checks (wrong parameter count, two statements) are TypeErrors and RangeErrors.
    (error.code === undefined && (error.name === "TypeError" || error.name === "RangeError"));
  if (statementFault) return new ToolFailure("invalid_input", `SQLite: ${error.message}`, { details });
  return new ToolFailure("upstream_error", `SQLite: ${error.message}`, {
    details,
    retryable: /^SQLITE_(BUSY|LOCKED)/.test(code),
  });
}

export class SqliteProcess {
  readonly #config: SqliteProcessConfig;
  readonly #queue: Job[] = [];
  #child: ChildProcess | undefined;
  #starting: Promise<ChildProcess> | undefined;
  #active: Job | undefined;
  #nextId = 1;
  #closed = false;

  constructor(config: SqliteProcessConfig) {
    this.#config = config;
  }

  /** Sends one request; it runs after those before it, and its time limit starts when it reaches the child. */
  request<T>(body: SqliteRequestBody, timeoutMs: number, signal: AbortSignal | undefined): Promise<T> {
    if (this.#closed) return Promise.reject(closedFailure());
    if (signal?.aborted) return Promise.reject(abortedFailure());
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        id: this.#nextId++,
        body,
        timeoutMs,
        signal,
        resolve: resolve as (result: unknown) => void,
        reject,
        timer: undefined,
        onAbort: undefined,
      };
      if (signal) {
        job.onAbort = () => this.#abort(job);
        signal.addEventListener("abort", job.onAbort, { once: true });
      }
      this.#queue.push(job);
      this.#pump();
    });
  }

  /** Ends the child and fails whatever is waiting. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) this.#settle(job, closedFailure());
    if (this.#active) this.#settle(this.#active, closedFailure());
    const child = this.#child;
    this.#child = undefined;
    if (child && child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGKILL");
      });
    }
  }

  #pump(): void {
    if (this.#closed || this.#active !== undefined || this.#queue.length === 0) {
      this.#hold();
      return;
    }
    const job = this.#queue.shift() as Job;
    this.#active = job;
    this.#hold();
    this.#start().then(
      (child) => {
        if (this.#active !== job) return; // aborted while the child was starting
        job.timer = setTimeout(() => this.#expire(job), job.timeoutMs);
        try {
          child.send({ ...job.body, id: job.id } satisfies SqliteRequest);
        } catch (error) {
          this.#kill();
          const message = error instanceof Error ? error.message : String(error);
          this.#settle(job, new ToolFailure("upstream_error", `SQLite: ${message}`, { retryable: true }));
        }
      },
      (error: ToolFailure) => this.#settle(job, error),
    );
  }

  /** While a request is out the child keeps the host alive; idle, it must not. */
  #hold(): void {
    const child = this.#child;
    if (!child) return;
    if (this.#active !== undefined || this.#queue.length > 0) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  }

  #start(): Promise<ChildProcess> {
    if (this.#child) return Promise.resolve(this.#child);
    if (this.#starting) return this.#starting;
    const { path, execArgv } = entryPoint();
    const child = fork(path, [JSON.stringify(this.#config)], {
      execArgv,
      stdio: ["ignore", "ignore", "inherit", "ipc"],
      serialization: "json",
    });
    this.#starting = new Promise<ChildProcess>((resolve, reject) => {
      let starting = true;
      const fail = (failure: ToolFailure) => {
        if (!starting) return;
        starting = false;
        clearTimeout(timer);
        child.kill("SIGKILL");
        reject(failure);
      };
      const timer = setTimeout(
        () => fail(new ToolFailure("upstream_error", "SQLite: the database process did not start in time")),
        STARTUP_TIMEOUT_MS,
      );
      child.once("message", (reply: SqliteReply) => {
        if (reply.kind !== "ready") {
          const unexpected = new ToolFailure(
            "upstream_error",
            "SQLite: the database process failed to start",
          );
          return fail(reply.kind === "fatal" ? sqliteFailure(reply.error) : unexpected);
        }
        starting = false;
        clearTimeout(timer);
        if (this.#closed) {
          child.kill("SIGKILL");
          return reject(closedFailure());
        }
        this.#child = child;
        resolve(child);
      });
      // After start, a death is reported by the exit handler below; errors only matter while starting.
      child.on("error", (error) =>
        fail(
          new ToolFailure("upstream_error", `SQLite: cannot start the database process: ${error.message}`),
        ),
      );
      child.once("exit", (code, signal) =>
        fail(
          new ToolFailure(
            "upstream_error",
            `SQLite: the database process exited on start (${signal ?? code})`,
          ),
        ),
      );
    }).finally(() => {
      this.#starting = undefined;
    });
    child.on("message", (reply: SqliteReply) => this.#onReply(child, reply));
    child.on("exit", (code, signal) => this.#onExit(child, code, signal));
    return this.#starting;
  }

  #onReply(child: ChildProcess, reply: SqliteReply): void {
    const job = this.#active;
    if (child !== this.#child || job === undefined) return;
    if (reply.kind === "result" && reply.id === job.id) this.#settle(job, undefined, reply.result);
    else if (reply.kind === "error" && reply.id === job.id) this.#settle(job, sqliteFailure(reply.error));
  }

  #onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (child !== this.#child) return; // one we killed, or one that never started
    this.#child = undefined;
    const job = this.#active;
    if (job) {
      const failure = new ToolFailure(
        "upstream_error",
        `SQLite: the database process exited (${signal ?? code})`,
        {
          retryable: true,
        },
      );
      this.#settle(job, failure);
    }
  }

  /** Kills the child, whatever it is doing; the next request starts a fresh one. */
  #kill(): void {
    const child = this.#child;
    this.#child = undefined;
    child?.kill("SIGKILL");
  }

  #expire(job: Job): void {
    if (this.#active !== job) return;
    this.#kill();
    this.#settle(
      job,
      new ToolFailure(
        "timeout",
        `SQLite: the statement did not finish within ${job.timeoutMs} ms and was stopped`,
        {
          details: { dialect: "sqlite", timeoutMs: job.timeoutMs },
        },
      ),
    );
  }

  #abort(job: Job): void {
    const queued = this.#queue.indexOf(job);
    if (queued !== -1) {
      this.#queue.splice(queued, 1);
      this.#settle(job, abortedFailure());
    } else if (this.#active === job) {
      this.#kill();
      this.#settle(job, abortedFailure());
    }
  }

  #settle(job: Job, error: ToolFailure | undefined, result?: unknown): void {
    clearTimeout(job.timer);
    if (job.onAbort) job.signal?.removeEventListener("abort", job.onAbort);
    if (this.#active === job) this.#active = undefined;
    if (error) job.reject(error);
    else job.resolve(result);
    this.#pump();
  }
}

function closedFailure(): ToolFailure {
  return new ToolFailure("upstream_error", "SQLite: the database connection is closed");
}

function abortedFailure(): ToolFailure {
  return new ToolFailure("timeout", "SQLite: the call was aborted and its statement stopped", {
    details: { dialect: "sqlite", aborted: true },
  });
}
