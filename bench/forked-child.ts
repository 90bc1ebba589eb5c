/**
 * @module A benchmark's child process, forked through tsx so it can run TypeScript: waiting for its next
 * message, and stopping it. With TOOLREG_BENCH_CPU_PROF set to a folder, the child writes a V8 CPU profile
 * there as it exits (Node refuses `--cpu-prof` in NODE_OPTIONS, so it is passed here).
 */
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";

const STOP_TIMEOUT_MS = 5_000;

export function forkBenchChild(script: string | URL, args: readonly string[] = []): ChildProcess {
  const profileDir = process.env.TOOLREG_BENCH_CPU_PROF;
  return fork(script, [...args], {
    execArgv: [
      "--import",
      import.meta.resolve("tsx"),
      ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
    ],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
}

/** The child's next message that `accepts` takes; fails if the child exits or stays silent too long. */
export function nextChildMessage<Message>(
  child: ChildProcess,
  accepts: (message: unknown) => message is Message,
  timeoutMs: number,
  waitingFor: string,
): Promise<Message> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => settle(new Error(`no ${waitingFor} within ${timeoutMs} ms`)), timeoutMs);
    const onMessage = (message: unknown) => {
      if (accepts(message)) settle(undefined, message);
    };
    const onExit = (code: number | null) => settle(new Error(`exited (code ${code}) before ${waitingFor}`));
    const settle = (error?: Error, message?: Message) => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve(message as Message);
    };
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

/** Sends `stop` and waits for the child to exit; kills it if it has not within five seconds. */
export async function stopChild(child: ChildProcess, stop: object): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.send(stop);
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
