/**
 * @module The CLI's host: the default registry, a seam over the command's stores (the embedded SQLite file,
 * or PostgreSQL), and the contexts it builds for the terminal operator. The state lives in the stores, so a
 * call parked by one command can be approved by the next.
 */
import { randomUUID } from "node:crypto";
import { pino } from "pino";
import { TODO_RETENTION_MS } from "../ports/todo-store.js";
import { TOOLKIT_RECORD_RETENTION_MS } from "../ports/toolkit-record-store.js";
import type { AnyTool } from "../registry/registry.js";
import { ToolRegistry } from "../registry/registry.js";
import {
  type AssistantMode,
  createExecutionContext,
  type ExecutionContext,
  IDENTIFIER,
} from "../seam/context.js";
import { Seam } from "../seam/seam.js";
import type { EmbeddingModel } from "./cli-embeddings.js";
import { UsageError } from "./cli-io.js";
import type { CliStores } from "./cli-stores.js";
import type { ToolFlags } from "./cli-tools.js";
import { ceilingsOf, type Settings } from "./config-file.js";
import { openRedisCeilings } from "./redis-ceilings.js";

export interface GlobalOptions extends ToolFlags {
  db?: string;
  nats?: string;
  config?: string;
  rateLimit: string[];
  onAuditFailure?: "refuse" | "alert";
  drainMs?: string;
  embeddings?: EmbeddingModel;
  registry?: string;
  mcpConfig?: string;
  tenant: string;
  mode: AssistantMode;
  principal: string;
  logLevel: string;
}

export interface CliState {
  seam: Seam;
  /** The registry behind the seam: a long-running command installs what imported servers add. */
  registry: ToolRegistry;
  stores: CliStores;
  /** A context for a fresh call by `principal` (the operator unless given). */
  context(init?: {
    principal?: string;
    idempotencyKey?: string;
    toolCallId?: string;
    signal?: AbortSignal;
  }): ExecutionContext;
  /**
   * Stops the seam (waiting up to `drainMs`, the settings' drain unless given, or until `force` aborts);
   * once, however often it is called. The stores are the command's to close.
   */
  close(drainMs?: number, force?: AbortSignal): Promise<void>;
}

/** `settings`: what the command loaded before serving its tools, so the config file is read once. */
export async function openCliState(
  tools: readonly AnyTool[],
  settings: Settings,
  options: GlobalOptions,
  stores: CliStores,
): Promise<CliState> {
  for (const [flag, value] of [
    ["--tenant", options.tenant],
    ["--principal", options.principal],
  ] as const) {
    if (!IDENTIFIER.test(value)) {
      throw new UsageError(`${flag} "${value}" is not an identifier (letters, digits, . _ : @ / -)`);
    }
  }
  // With a Redis configured, a command counts against the limits every instance shares, as serve does.
  const shared = await openRedisCeilings(settings);
  const ceilings = shared?.ceilings ?? (settings.redis ? undefined : ceilingsOf(settings));
  const registry = new ToolRegistry(tools);
  const logger = pino({ level: options.logLevel }, pino.destination(2));
  const seam = new Seam({
    registry: registry.view(),
    stores,
    outputs: stores.outputs,
    logger,
    onAuditFailure: settings.onAuditFailure,
    ...(ceilings ? { ceilings } : {}),
    ...(settings.toolsets ? { toolsets: settings.toolsets } : {}),
  });
  await seam.sweep();
  // As serve does each minute: a desktop's `toolreg mcp` is a new run each session, and its lists would pile up.
  await stores.todos.purge({ before: Date.now() - TODO_RETENTION_MS });
  await stores.records.purge({ before: Date.now() - TOOLKIT_RECORD_RETENTION_MS });
  const runId = `cli-${randomUUID()}`;
  let closing: Promise<void> | undefined;
  return {
    seam,
    registry,
    stores,
    context: (init = {}) =>
      createExecutionContext({
        tenantId: options.tenant,
        principalId: init.principal ?? options.principal,
        runId,
        toolCallId: init.toolCallId ?? randomUUID(),
        mode: options.mode,
        logger,
        idempotencyKey: init.idempotencyKey,
        signal: init.signal,
      }),
    close(drainMs = settings.drainMs, force) {
      closing ??= (async () => {
        // A call that changes data and outlives the drain (a client cancelled it, say) is recorded
        // interrupted, never left in flight under a closed store.
        const { interrupted } = await seam.stop(drainMs, force);
        if (interrupted > 0) {
          logger.warn({ interrupted }, "calls still running at the stop were recorded interrupted");
        }
        await seam.close();
        await shared?.close();
      })();
      return closing;
    },
  };
}
