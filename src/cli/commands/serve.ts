/**
 * @module `toolreg serve`: the registry server on the embedded SQLite store, with the standard tools, the
 * demo toolkit and the meta-tools. On first start with no key it creates an operator key and prints a
 * console link carrying a one-time login token; SIGTERM or SIGINT stops it gracefully, a second one at once.
 */
import type { AuthStore } from "../../ports/auth-store.js";
import type { Logger } from "../../seam/context.js";
import { listen } from "../../server/listen.js";
import type { RegistryServer } from "../../server/registry-server.js";
import type { CliIo } from "../cli-io.js";
import { UsageError } from "../cli-io.js";
import type { StopSignals } from "../stop-signals.js";

export interface ServeOptions {
  port?: string;
  host?: string;
  /** How long a stop waits for running calls. */
  drainMs?: number;
}

export async function serveCommand(
  server: RegistryServer,
  operator: { tenantId: string; principalId: string },
  options: ServeOptions,
  io: CliIo,
  logger: Logger,
  stop: StopSignals,
): Promise<number> {
  const port = options.port === undefined ? undefined : Number(options.port);
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65_535)) {
    throw new UsageError("--port must be a whole number from 0 to 65535");
  }
  const listening = await listen(server, {
    ...(port === undefined ? {} : { port }),
    ...(options.host ? { host: options.host } : {}),
  });
  io.stdout(`toolreg registry on ${listening.url} (${server.deps.registry.list().length} tools)\n`);
  const login = await firstStartLogin(server.auth, operator);
  if (login) {
    io.stdout(
      `operator API key for ${operator.tenantId}/${operator.principalId} (shown once): ${login.key}\n`,
    );
    io.stdout(`console: ${listening.url}/login?token=${login.token}\n`);
  } else {
    io.stdout(`console: ${listening.url}/ (a new login link: toolreg keys login)\n`);
  }
  const signal = await stop.requested;
  logger.info({ signal }, "stopping: no new calls, waiting for running ones (a second signal forces it)");
  const { drained, interrupted } = await listening.stop(options.drainMs, stop.force);
  if (drained) io.stdout("stopped\n");
  else if (interrupted === 0) io.stdout("stopped; requests still open at the deadline were cut off\n");
  else {
    io.stdout(
      interrupted === 1
        ? "stopped; 1 call that changes data still ran at the deadline and was recorded interrupted\n"
        : `stopped; ${interrupted} calls that change data still ran at the deadline and were recorded interrupted\n`,
    );
  }
  return 0;
}

/** An operator key and a login token, when the store has no key at all. */
async function firstStartLogin(
  auth: AuthStore,
  operator: { tenantId: string; principalId: string },
): Promise<{ key: string; token: string } | undefined> {
  if (await auth.hasKeys()) return undefined;
  const { key, record } = await auth.createKey({
    ...operator,
    operator: true,
    label: "created on first start",
  });
  return { key, token: await auth.createLoginToken(record.id) };
}
