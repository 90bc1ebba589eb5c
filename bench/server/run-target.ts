/**
 * @module The child side of a benchmark target: starts when the parent sends its options, answers CPU
 * queries, stops and exits when told, and exits if the parent goes away, so no server outlives the benchmark.
 */
import type { ChildMessage, ParentMessage } from "./target-messages.js";

export interface StartedTarget<Ready> {
  ready: Ready;
  stop(): Promise<void>;
}

export function runTarget<Options, Ready>(start: (options: Options) => Promise<StartedTarget<Ready>>): void {
  const send = (message: ChildMessage) => process.send?.(message);
  let started: StartedTarget<Ready> | undefined;
  process.on("disconnect", () => process.exit(1));
  process.on("message", (message: ParentMessage) => {
    if (message.type === "start") {
      start(message.options as Options).then(
        (target) => {
          started = target;
          send({ type: "ready", ready: target.ready });
        },
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
    } else if (message.type === "cpu") {
      const usage = process.cpuUsage();
      send({ type: "cpu", micros: usage.user + usage.system });
    } else {
      (started?.stop() ?? Promise.resolve()).then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
    }
  });
}
