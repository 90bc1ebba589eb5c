/**
 * @module The ceilings of `serve --redis`: the configured rules kept in Redis, so every instance counts
 * against one limit. The adapter's packages are optional peers, loaded only here.
 */
import type { Ceilings } from "../policy/ports.js";
import { UsageError } from "./cli-io.js";
import type { Settings } from "./config-file.js";

const PEERS = "ioredis@^6 rate-limiter-flexible@^11";

/** The rules' ceilings in Redis, or undefined when no Redis or no rule is configured; `close` disconnects. */
export async function openRedisCeilings(
  settings: Pick<Settings, "redis" | "rateLimits">,
): Promise<{ ceilings: Ceilings; close(): Promise<void> } | undefined> {
  if (!settings.redis || settings.rateLimits.length === 0) return undefined;
  let adapter: typeof import("../stores/redis/ceilings.js");
  try {
    adapter = await import("../stores/redis/ceilings.js");
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new UsageError(`--redis needs the optional packages ${PEERS}: npm install ${PEERS}`);
  }
  const ceilings = await adapter.RedisCeilings.open({ ...settings.redis, rules: settings.rateLimits });
  return { ceilings, close: () => ceilings.close() };
}
