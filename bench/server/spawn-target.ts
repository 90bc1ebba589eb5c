/**
 * @module The parent side of a benchmark target: forks a target script (through tsx) into its own process,
 * so the server under load never shares a CPU with the load generator, and every target is measured alike.
 */
import { forkBenchChild, nextChildMessage, stopChild } from "../forked-child.js";
import type { ChildMessage, ParentMessage } from "./target-messages.js";

const REPLY_TIMEOUT_MS = 30_000;

export interface Target<Ready> {
  ready: Ready;
  /** CPU time (user and system) the target's process has used so far, in microseconds. */
  cpuMicros(): Promise<number>;
  /** Asks the target to stop gracefully; kills it if it has not exited within five seconds. */
  stop(): Promise<void>;
}

export async function spawnTarget<Ready>(script: URL, options: unknown = {}): Promise<Target<Ready>> {
  const child = forkBenchChild(script);
  const send = (message: ParentMessage) => child.send(message);
  const next = <Type extends ChildMessage["type"]>(type: Type) =>
    nextChildMessage(
      child,
      (message): message is Extract<ChildMessage, { type: Type }> => (message as ChildMessage).type === type,
      REPLY_TIMEOUT_MS,
      `"${type}" from the target`,
    );
  try {
    send({ type: "start", options });
    const ready = await next("ready");
    return {
      ready: ready.ready as Ready,
      async cpuMicros() {
        send({ type: "cpu" });
        return (await next("cpu")).micros;
      },
      stop: () => stopChild(child, { type: "stop" } satisfies ParentMessage),
    };
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
}
