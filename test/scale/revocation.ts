/**
 * @module How soon a key revoked is refused by instances that had just let it in. Each trial makes a key,
 * polls the instances with it until each has answered 200 (so its key cache holds it, for a second), revokes
 * it, and times the polls until every instance answers 401. Without the bus the caches would honour the key
 * until their second is up; with it, they drop it when the revocation is heard.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { connect } from "nats";
import { openPostgresDeployment } from "../../src/stores/postgres/index.js";
import { CLI } from "../faults/instances.js";
import { request } from "../faults/requests.js";
import { NATS_URL } from "../support/nats.js";
import { POSTGRES_URL } from "../support/postgres-schema.js";
import type { Deployment } from "./deployment.js";

const run = promisify(execFile);
/** Past the key cache's second: a key still let in this long after its revocation returned is never refused. */
const REFUSAL_TIMEOUT_MS = 5_000;
/** Bounds `toolreg keys revoke` itself, whose start-up on a loaded machine can take seconds. */
const COMMAND_TIMEOUT_MS = 60_000;

export interface RevocationLatencies {
  /** Milliseconds from each in-script revocation (store, then the bus) to the last instance's 401. */
  trials: number[];
  /** The same from `toolreg keys revoke`'s exit; negative when every instance refused before it exited. */
  command: number;
}

/** `trials` revocations through the store and a NATS publish, then one through the CLI, on `urls`. */
export async function revocationLatencies(
  deployment: Deployment,
  urls: readonly string[],
  options: { tenant: string; config: string; trials: number },
): Promise<RevocationLatencies> {
  const stores = await openPostgresDeployment({ connectionString: POSTGRES_URL, schema: deployment.id });
  const nats = await connect({ servers: NATS_URL });
  try {
    const trial = async (principal: string, revoke: (keyId: string) => Promise<unknown>) => {
      const { key, record } = await stores.auth.createKey({
        tenantId: options.tenant,
        principalId: principal,
      });
      let revoked = () => {};
      const revocation = new Promise<void>((resolve) => {
        revoked = resolve;
      });
      const watches = urls.map((url) => watch(url, key, revocation));
      await Promise.all(watches.map((watching) => Promise.race([watching.admitted, watching.refusedAt])));
      await revoke(record.id).finally(revoked);
      const revokedAt = performance.now();
      return Math.max(...(await Promise.all(watches.map((watching) => watching.refusedAt)))) - revokedAt;
    };
    const trials: number[] = [];
    for (let index = 0; index < options.trials; index++) {
      trials.push(
        await trial(`revoked-${index}`, async (keyId) => {
          await stores.auth.revokeKey(keyId);
          // What `toolreg keys revoke` publishes, without a process's start-up in the way of 100 trials.
          nats.publish(`${deployment.id}.keys`, JSON.stringify({ type: "key.revoked", keyId }));
          await nats.flush();
        }),
      );
    }
    const command = await trial("revoked-by-cli", (keyId) =>
      run(
        process.execPath,
        [CLI, "--db", deployment.store, "--config", options.config, "keys", "revoke", keyId],
        { cwd: deployment.dir, timeout: COMMAND_TIMEOUT_MS },
      ),
    );
    return { trials, command };
  } finally {
    await nats.close();
    await stores.close();
  }
}

/**
 * Polls `url` with `key` as fast as it answers: `admitted` once it has answered 200, `refusedAt` when it
 * answers 401 (a refusal before any admission, or any other answer, is a failure). The time allowed runs
 * from `revocation`'s settling, so a slow revoking command does not count against the instances.
 */
function watch(
  url: string,
  key: string,
  revocation: Promise<void>,
): { admitted: Promise<void>; refusedAt: Promise<number> } {
  let admit = () => {};
  const admitted = new Promise<void>((resolve) => {
    admit = resolve;
  });
  const refusedAt = (async () => {
    let seen = false;
    let deadline = Number.POSITIVE_INFINITY;
    void revocation.then(() => {
      deadline = performance.now() + REFUSAL_TIMEOUT_MS;
    });
    while (performance.now() < deadline) {
      const answer = await request(url, "/api/v1/session", undefined, { key });
      if (answer.status === 401 && seen) return performance.now();
      if (answer.status !== 200) throw new Error(`${url} answered ${answer.status} to a live key`);
      seen = true;
      admit();
    }
    throw new Error(
      `${url} still let a revoked key in ${REFUSAL_TIMEOUT_MS} ms after its revocation returned`,
    );
  })();
  // Awaited by the trial; marked handled here so a failure on one instance does not end the process.
  refusedAt.catch(() => {});
  return { admitted, refusedAt };
}
