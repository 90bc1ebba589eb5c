/**
 * @module The event bus of `--nats`: the instances of one deployment tell each other of approvals and
 * revoked keys over NATS. The `nats` package is an optional peer, loaded only here.
 */
import type { EventBus } from "../ports/event-bus.js";
import type { Logger } from "../seam/context.js";
import { UsageError } from "./cli-io.js";
import type { Settings } from "./config-file.js";

const PEER = "nats@^2.29";

/**
 * For a command that changed what every instance serves or honours: says so on the bus the settings name,
 * if any. A bus that does not answer is a warning with what happens without it, never the command's failure.
 */
export async function tellInstances(
  settings: Pick<Settings, "nats">,
  logger: Logger,
  tell: (bus: EventBus) => void,
  withoutIt: string,
  stderr: (text: string) => void,
): Promise<void> {
  if (!settings.nats) return;
  try {
    const bus = await openNatsBus(settings, logger);
    if (!bus) return;
    tell(bus);
    await bus.close();
  } catch (error) {
    stderr(`warning: ${(error as Error).message}; ${withoutIt}\n`);
  }
}

/** The bus the settings name, connected; undefined without one. Rejects when NATS does not answer. */
export async function openNatsBus(
  settings: Pick<Settings, "nats">,
  logger: Logger,
): Promise<EventBus | undefined> {
  if (!settings.nats) return undefined;
  let adapter: typeof import("../stores/nats/event-bus.js");
  try {
    adapter = await import("../stores/nats/event-bus.js");
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new UsageError(`--nats needs the optional package ${PEER}: npm install ${PEER}`);
  }
  try {
    return await adapter.NatsEventBus.open({ ...settings.nats, logger });
  } catch (error) {
    // The URL as said, without any user and password it carries.
    const where = settings.nats.url.replaceAll(/\/\/[^@/,]*@/g, "//");
    throw new Error(`NATS at ${where} did not answer: ${(error as Error).message}`);
  }
}
