/**
 * @module One deployment under benchmark: `toolreg serve` processes on one store (a SQLite file or a
 * PostgreSQL schema), started as a user would with the counting catalogue, and an agent's API key.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { CLI, COUNTING, type Instance, startServe } from "../../test/faults/instances.js";

export interface Deployment {
  readonly urls: readonly string[];
  readonly key: string;
  /** Stops every instance (SIGTERM, a graceful drain) and waits for each to exit. */
  stop(): Promise<void>;
}

/** Starts `count` instances on `store` in `cwd`, after making the key (which also migrates the store). */
export async function startDeployment(store: string, count: number, cwd: string): Promise<Deployment> {
  const key = execFileSync(
    process.execPath,
    [CLI, "--db", store, "--tenant", "bench", "--principal", "agent", "keys", "create"],
    { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
  ).trim();
  // The counting writes log their runs; a file of the benchmark's own, not the working directory's.
  const env = { TOOLREG_COUNT_FILE: join(cwd, "executions.log") };
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, index) =>
      startServe(`instance ${index + 1}`, cwd, ["--db", store, "--registry", COUNTING], env),
    ),
  );
  const instances = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const stop = () => Promise.all(instances.map(stopInstance)).then(() => undefined);
  const refused = started.find((result) => result.status === "rejected");
  if (refused) {
    await stop();
    throw refused.reason;
  }
  return { urls: instances.map((instance) => instance.url), key, stop };
}

async function stopInstance(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  instance.child.kill("SIGTERM");
  await instance.exited;
}
