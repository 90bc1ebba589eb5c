/**
 * @module Runs one sandbox argv: a process group of its own, capped output, a wall-clock kill, the command's
 * cgroup watched for its limits and removed after, resolved on exit.
 */
import { spawn } from "node:child_process";
import { CappedOutput } from "./capped-output.js";
import type { CommandCgroup } from "./cgroup.js";
import { LAUNCH_FAILED_EXIT, LAUNCH_FAILED_MARKER } from "./cgroup-launcher.js";
import type { CgroupReport, SandboxLimit, SandboxResult, SandboxRunRequest } from "./sandbox.js";
import { SandboxUnavailableError } from "./sandbox-unavailable-error.js";

/** How an allocation failure reads in the error output of common runtimes (libc, shells, Perl, Python, C++, Node). */
const OUT_OF_MEMORY =
  /cannot allocate memory|out of memory|memory exhausted|cannot (?:re)?allocate \d+ bytes|MemoryError|bad_alloc|allocation failed|failed to allocate|ENOMEM/i;

/** After exit, how long the pipes may take to hand over what is already in them. */
const DRAIN_GRACE_MS = 200;
/** How often a running command's cgroup counters are read: the delay before a limit hit kills the rest. */
const CGROUP_POLL_MS = 50;

export interface RunProcessOptions {
  /** Named in errors, e.g. "bubblewrap". */
  sandbox: string;
  env: NodeJS.ProcessEnv;
  /** Host account to run as (needs root). */
  uid?: number;
  gid?: number;
  /**
   * The command's cgroup, which `argv` joins before it runs (see `launchInCgroup`): its first OOM kill or
   * refused fork ends the whole command, and it is closed (emptied, read, removed) before the result.
   */
  cgroup?: CommandCgroup;
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
    let killed = false;
    const cgroup = options.cgroup;

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
      killed = true;
      killGroup();
    };
    const timer = setTimeout(() => stop("timeout"), request.timeoutMs);
    const watch = cgroup && watchCgroup(cgroup, stop);
    const onAbort = () => stop("aborted");
    request.signal?.addEventListener("abort", onAbort, { once: true });
    if (request.signal?.aborted) onAbort();

    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.stdin.on("error", () => {}); // a command that ignores its input closes the pipe early
    child.stdin.end(request.stdin ?? "");

    child.once("error", (error) => {
      clearTimeout(timer);
      clearInterval(watch);
      void cgroup?.close().catch(() => {});
      request.signal?.removeEventListener("abort", onAbort);
      reject(
        new SandboxUnavailableError(options.sandbox, `could not start ${file}: ${error.message}`, {
          cause: error,
        }),
      );
    });

    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      clearInterval(watch);
      request.signal?.removeEventListener("abort", onAbort);
      // Nothing the command started outlives the run, whatever the adapter's isolation.
      killGroup();
      const closed: Promise<CgroupReport | Error | undefined> = cgroup
        ? cgroup.close().catch((error: Error) => error)
        : Promise.resolve(undefined);
      const ended = (stream: NodeJS.ReadableStream) =>
        new Promise<void>((done) => {
          if ((stream as { readableEnded?: boolean }).readableEnded) done();
          else stream.once("end", () => done()).once("close", () => done());
        });
      const grace = new Promise<void>((done) => setTimeout(done, DRAIN_GRACE_MS).unref());
      const drained = Promise.race([Promise.all([ended(child.stdout), ended(child.stderr)]), grace]);
      void Promise.all([drained, closed]).then(([, report]) => {
        child.stdout.destroy();
        child.stderr.destroy();
        const stderrText = stderr.text();
        if (cgroup && code === LAUNCH_FAILED_EXIT && stderrText.includes(LAUNCH_FAILED_MARKER)) {
          reject(
            new SandboxUnavailableError(options.sandbox, `the command did not start: ${stderrText.trim()}`),
          );
          return;
        }
        if (report instanceof Error) {
          // The command ran in it; a cgroup that could not be removed is the host's problem, not the result's.
          process.emitWarning(`could not remove the command's cgroup: ${report.message}`, "SandboxWarning");
        } else if (report) {
          if (report.oomKills > 0) limitHit ??= "memory";
          if (report.forksRefused > 0) limitHit ??= "processes";
        }
        if (limitHit === null && code !== 0 && OUT_OF_MEMORY.test(`${stderrText}\n${stderr.tail()}`)) {
          limitHit = "memory";
        }
        resolve({
          exitCode: killed ? null : code,
          signal,
          stdout: stdout.text(),
          stderr: stderrText,
          stdoutTruncated: stdout.truncated,
          stderrTruncated: stderr.truncated,
          timedOut: limitHit === "timeout",
          memoryLimitHit: limitHit === "memory",
          limitHit,
          durationMs: Math.round(performance.now() - started),
          ...(report && !(report instanceof Error) ? { cgroup: report } : {}),
        });
      });
    });
  });
}

/** Reads the cgroup's counters while the command runs; the first OOM kill or refused fork stops it whole. */
function watchCgroup(cgroup: CommandCgroup, stop: (reason: SandboxLimit) => void): NodeJS.Timeout {
  return setInterval(() => {
    try {
      const { oomKills, forksRefused } = cgroup.counters();
      if (oomKills > 0) stop("memory");
      else if (forksRefused > 0) stop("processes");
    } catch {
      // Read again on the next tick; the close reads them for certain.
    }
  }, CGROUP_POLL_MS);
}
