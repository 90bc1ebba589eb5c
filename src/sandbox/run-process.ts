/** @module Runs one sandbox argv: a process group of its own, capped output, a wall-clock kill, resolved on exit. */
import { spawn } from "node:child_process";
import { CappedOutput } from "./capped-output.js";
import type { SandboxLimit, SandboxResult, SandboxRunRequest } from "./sandbox.js";
import { SandboxUnavailableError } from "./sandbox-unavailable-error.js";

/** How an allocation failure reads in the error output of common runtimes (libc, shells, Perl, Python, C++, Node). */
const OUT_OF_MEMORY =
  /cannot allocate memory|out of memory|memory exhausted|cannot (?:re)?allocate \d+ bytes|MemoryError|bad_alloc|allocation failed|failed to allocate|ENOMEM/i;

/** After exit, how long the pipes may take to hand over what is already in them. */
const DRAIN_GRACE_MS = 200;

export interface RunProcessOptions {
  /** Named in errors, e.g. "bubblewrap". */
  sandbox: string;
  env: NodeJS.ProcessEnv;
  /** Host account to run as (needs root). */
  uid?: number;
  gid?: number;
}

/**
 * Spawns `argv` detached, so it leads a process group the timeout can kill whole. Resolves on `exit`, not
 * `close`: a forked grandchild holding the pipes open must not keep the call alive.
 */
export function runProcess(
  argv: readonly string[],
  request: SandboxRunRequest,
  options: RunProcessOptions,
): Promise<SandboxResult> {
  const [file, ...args] = argv;
  if (file === undefined) throw new TypeError("runProcess needs a program to run");
  const started = performance.now();
  return new Promise<SandboxResult>((resolve, reject) => {
    const child = spawn(file, args, {
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      env: options.env,
      ...(options.uid === undefined ? {} : { uid: options.uid }),
      ...(options.gid === undefined ? {} : { gid: options.gid }),
    });
    const stdout = new CappedOutput(request.maxOutputBytes);
    const stderr = new CappedOutput(request.maxOutputBytes);
    let limitHit: SandboxLimit | null = null;

    const killGroup = () => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const stop = (reason: SandboxLimit) => {
      limitHit ??= reason;
      killGroup();
    };
    const timer = setTimeout(() => stop("timeout"), request.timeoutMs);
    const onAbort = () => stop("aborted");
    request.signal?.addEventListener("abort", onAbort, { once: true });
    if (request.signal?.aborted) onAbort();

    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on("error", () => {}); // a command that ignores its input closes the pipe early
    child.stdin.end(request.stdin ?? "");

    child.once("error", (error) => {
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      reject(
        new SandboxUnavailableError(options.sandbox, `could not start ${file}: ${error.message}`, {
          cause: error,
        }),
      );
    });

    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      // Nothing the command started outlives the run, whatever the adapter's isolation.
      killGroup();
      const ended = (stream: NodeJS.ReadableStream) =>
        new Promise<void>((done) => {
          if ((stream as { readableEnded?: boolean }).readableEnded) done();
          else stream.once("end", () => done()).once("close", () => done());
        });
      const grace = new Promise<void>((done) => setTimeout(done, DRAIN_GRACE_MS).unref());
      void Promise.race([Promise.all([ended(child.stdout), ended(child.stderr)]), grace]).then(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        const stderrText = stderr.text();
        const memoryLimitHit =
          limitHit === null && code !== 0 && OUT_OF_MEMORY.test(`${stderrText}\n${stderr.tail()}`);
        if (memoryLimitHit) limitHit = "memory";
        resolve({
          exitCode: limitHit === "timeout" || limitHit === "aborted" ? null : code,
          signal,
          stdout: stdout.text(),
          stderr: stderrText,
          stdoutTruncated: stdout.truncated,
          stderrTruncated: stderr.truncated,
          timedOut: limitHit === "timeout",
          memoryLimitHit,
          limitHit,
          durationMs: Math.round(performance.now() - started),
        });
      });
    });
  });
}
