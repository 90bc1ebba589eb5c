/**
 * @module One deployment for the scale run: a fresh PostgreSQL schema and a NATS subject prefix of its own
 * (so runs never meet), config files naming them, and the `toolreg serve` processes started on it.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COUNTING, type Instance, startServe } from "../faults/instances.js";
import { NATS_URL } from "../support/nats.js";
import { dropSchema, POSTGRES_URL } from "../support/postgres-schema.js";

export interface Deployment {
  /** The working directory of every process; the counting tools log to `log` in it. */
  readonly dir: string;
  readonly log: string;
  /** Unique to this run: the schema, the NATS subject prefix, and a part of tenant ids. */
  readonly id: string;
  /** The postgres:// URL of the run's schema, as `--db` takes it. */
  readonly store: string;
  /** Writes a config file naming the run's NATS prefix, plus `settings`; returns its path. */
  config(name: string, settings?: Record<string, unknown>): string;
  /** `toolreg --db <store> --registry <counting> --config <config> serve`, killed at close. */
  serve(name: string, config: string): Promise<Instance>;
  /** SIGKILLs every instance still running, drops the schema, removes the directory. */
  close(): Promise<void>;
}

export function openDeployment(): Deployment {
  const id = `toolreg_scale_${randomBytes(4).toString("hex")}`;
  const dir = mkdtempSync(join(tmpdir(), "toolreg-scale-"));
  const started: Instance[] = [];
  return {
    dir,
    id,
    log: join(dir, "executions.log"),
    store: `${POSTGRES_URL}?schema=${id}`,
    config(name, settings = {}) {
      const path = join(dir, `${name}.json`);
      writeFileSync(path, JSON.stringify({ nats: { url: NATS_URL, subjectPrefix: id }, ...settings }));
      return path;
    },
    async serve(name, config) {
      const args = ["--db", this.store, "--registry", COUNTING, "--config", config];
      const instance = await startServe(name, dir, args);
      started.push(instance);
      return instance;
    },
    async close() {
      for (const instance of started) instance.child.kill("SIGKILL");
      await Promise.all(started.map((instance) => instance.exited));
      await dropSchema(id);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
