/** @module `sleep`: waits, bounded by the call's deadline and cut short by an abort. */
import { z } from "zod";
import { generalTool } from "./general-env.js";

export const MAX_SLEEP_SECONDS = 60;

export const sleepSpec = generalTool({
  name: "sleep",
  description: `Waits a number of seconds (at most ${MAX_SLEEP_SECONDS}) before the next step, e.g. to let a job finish before polling it again. Ends early at the run's deadline and says so.`,
  category: "general",
  effect: "read",
  input: z.object({
    seconds: z.number().min(0).max(MAX_SLEEP_SECONDS).describe(`how long to wait, 0 to ${MAX_SLEEP_SECONDS}`),
  }),
  limits: { timeoutMs: (MAX_SLEEP_SECONDS + 5) * 1000 },
  async run({ seconds }, context) {
    const requestedMs = seconds * 1000;
    // Leave a little room so the result, not a timeout, reports the early end.
    const allowedMs = Math.max(0, Math.min(requestedMs, context.deadline - Date.now() - 50));
    const started = Date.now();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, allowedMs);
      context.signal.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
    const sleptMs = Date.now() - started;
    const cut = allowedMs < requestedMs || context.signal.aborted;
    return {
      content: cut
        ? `Slept ${(sleptMs / 1000).toFixed(1)} s of the ${seconds} s asked; the run's deadline cut it short.`
        : `Slept ${seconds} s.`,
      data: { requestedSeconds: seconds, sleptMs, cutShort: cut },
    };
  },
});
