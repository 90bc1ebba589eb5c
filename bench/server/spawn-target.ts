/**
 * @module The parent side of a benchmark target: forks a target script (through tsx) into its own process,
 * so the server under load never shares a CPU with the load generator, and every target is measured alike.
 * With TOOLREG_BENCH_CPU_PROF set to a folder, each target writes a V8 CPU profile there as it exits
 * (Node refuses `--cpu-prof` in NODE_OPTIONS, so it has to be passed here).
 */
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import type { ChildMessage, ParentMessage } from "./target-messages.js";

const REPLY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

export interface Target<Ready> {
  ready: Ready;
  /** CPU time (user and system) the target's process has used so far, in microseconds. */
  cpuMicros(): Promise<number>;
  /** Asks the target to stop gracefully; kills it if it has not exited within five seconds. */
  stop(): Promise<void>;
}

export async function spawnTarget<Ready>(script: URL, options: unknown = {}): Promise<Target<Ready>> {
  const profileDir = process.env.TOOLREG_BENCH_CPU_PROF;
  const child = fork(script, [], {
    execArgv: [
      "--import",
      import.meta.resolve("tsx"),
      ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
    ],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const send = (message: ParentMessage) => child.send(message);
  try {
    send({ type: "start", options });
    const ready = await nextMessage(child, "ready", REPLY_TIMEOUT_MS);
    return {
      ready: ready.ready as Ready,
      async cpuMicros() {
        send({ type: "cpu" });
        return (await nextMessage(child, "cpu", REPLY_TIMEOUT_MS)).micros;
      },
      stop: () => stopChild(child),
    };
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
}

function nextMessage<Type extends ChildMessage["type"]>(
  child: ChildProcess,
  type: Type,
  timeoutMs: number,
): Promise<Extract<ChildMessage, { type: Type }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => settle(new Error(`target sent no "${type}" within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const onMessage = (message: ChildMessage) => {
      if (message.type === type) settle(undefined, message as Extract<ChildMessage, { type: Type }>);
    };
    const onExit = (code: number | null) =>
      settle(new Error(`target exited (code ${code}) before "${type}"`));
    const settle = (error?: Error, message?: Extract<ChildMessage, { type: Type }>) => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve(message!);
    };
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.send({ type: "stop" } satisfies ParentMessage);
  const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
