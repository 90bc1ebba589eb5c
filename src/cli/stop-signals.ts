/**
 * @module How a long-running command (serve, mcp) hears it should stop: the first SIGTERM or SIGINT asks
 * for a graceful stop (no new calls, running ones drain, what outlives the drain is recorded interrupted);
 * a second forces it, cutting the drain short. A third is the default: the process dies.
 */
export interface StopSignals {
  /** Resolves with the first signal's name. */
  readonly requested: Promise<string>;
  /** Aborts on the second signal. */
  readonly force: AbortSignal;
  /** Stops listening, so the process's own default handling applies again. */
  dispose(): void;
}

export function listenForStop(): StopSignals {
  const force = new AbortController();
  let request: (signal: string) => void = () => {};
  const requested = new Promise<string>((resolve) => {
    request = resolve;
  });
  let heard = 0;
  const dispose = () => {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
  };
  function onSignal(signal: NodeJS.Signals): void {
    heard++;
    if (heard === 1) request(signal);
    else {
      force.abort(new Error(`${signal} again: stopping now`));
      dispose();
    }
  }
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  return { requested, force: force.signal, dispose };
}
