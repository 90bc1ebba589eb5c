/**
 * @module What the instances of one deployment tell each other over the event bus: approvals parked and
 * decided (so an operator's event stream on any instance hears them), keys revoked (so no instance's key
 * cache honours one a moment longer), a prompt schedule's occurrence (so its maker's host hears it on whichever
 * instance it listens to, whichever instance's scheduler fired it), and catalogue revisions (`tool.update`, for hosts listening on the
 * bus). Whatever arrives is checked before it is believed: the bus is shared infrastructure, not a caller.
 */
import { z } from "zod";
import type { EventBus } from "../ports/event-bus.js";
import { SCHEDULE_LIMITS } from "../ports/schedule-store.js";
import type { ToolUpdateEvent } from "../registry/registry.js";
import type { Logger } from "../seam/context.js";
import type { ApprovalEvent, EventHub, SchedulePromptEvent } from "./event-hub.js";
import type { VerifiedKeys } from "./key-cache.js";

export const TOPICS = {
  approvals: "approvals",
  keys: "keys",
  pins: "pins",
  schedulePrompts: "schedule.prompt",
  toolUpdate: "tool.update",
  toolQuery: "tool.query",
} as const;

const Text = z.string().min(1).max(512);
const ApprovalEventSchema = z.strictObject({
  type: z.enum(["approval.requested", "approval.resolved"]),
  tenantId: Text,
  approvalId: Text,
  tool: Text,
  outcome: Text,
  actor: Text,
  at: z.number().int().nonnegative(),
});

const SchedulePromptSchema = z.strictObject({
  type: z.literal("schedule.prompt"),
  tenantId: Text,
  principalId: Text,
  scheduleId: Text,
  runId: Text,
  prompt: z.string().min(1).max(SCHEDULE_LIMITS.promptChars),
  fireAt: z.number().int().nonnegative(),
  at: z.number().int().nonnegative(),
});

export interface KeyRevokedEvent {
  type: "key.revoked";
  keyId: string;
}
const KeyRevokedSchema = z.strictObject({ type: z.literal("key.revoked"), keyId: Text });

export interface PinAcceptedEvent {
  type: "pin.accepted";
  server: string;
  tool: string;
}
const PinAcceptedSchema = z.strictObject({ type: z.literal("pin.accepted"), server: Text, tool: Text });

/** Hears the other instances: their approvals reach this instance's event stream, their revocations its key cache. */
export function hearInstances(bus: EventBus, hub: EventHub, keys: VerifiedKeys, logger: Logger): () => void {
  const stops = [
    hear(bus, TOPICS.approvals, ApprovalEventSchema, logger, (event) => hub.publish(event)),
    hear(bus, TOPICS.keys, KeyRevokedSchema, logger, (event) => keys.forget(event.keyId)),
    hear(bus, TOPICS.schedulePrompts, SchedulePromptSchema, logger, (event) => hub.publish(event)),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

/** Tells the other instances of an approval this one recorded. */
export const tellApproval = (bus: EventBus, event: ApprovalEvent): void =>
  bus.publish(TOPICS.approvals, event);

/** Tells the other instances of a prompt this one's scheduler handed to the host. */
export const tellSchedulePrompt = (bus: EventBus, event: SchedulePromptEvent): void =>
  bus.publish(TOPICS.schedulePrompts, event);

/** Tells every instance that a key is revoked; the revoking process (`toolreg keys revoke`) says it. */
export const tellRevoked = (bus: EventBus, keyId: string): void =>
  bus.publish(TOPICS.keys, { type: "key.revoked", keyId } satisfies KeyRevokedEvent);

/** Tells every instance that a changed definition of an imported tool was accepted (`toolreg mcp accept`). */
export const tellPinAccepted = (bus: EventBus, server: string, tool: string): void =>
  bus.publish(TOPICS.pins, { type: "pin.accepted", server, tool } satisfies PinAcceptedEvent);

/**
 * Serves an accepted tool everywhere at once: each instance importing `server` lists it again, which
 * installs the tool in its registry (discovery, the event stream's `tool.update`, MCP `list_changed`).
 */
export function hearPinAcceptances(
  bus: EventBus,
  refresh: (server: string) => void,
  logger: Logger,
): () => void {
  return hear(bus, TOPICS.pins, PinAcceptedSchema, logger, (event) => refresh(event.server));
}

/** Subscribes to `topic`, believing only what has its shape; the rest is logged and ignored. */
function hear<T>(
  bus: EventBus,
  topic: string,
  schema: z.ZodType<T>,
  logger: Logger,
  use: (event: T) => void,
): () => void {
  return bus.subscribe(topic, (event) => {
    const parsed = schema.safeParse(event);
    if (parsed.success) use(parsed.data);
    else logger.warn({ topic }, "an event on the bus was not the shape its topic carries; ignored");
  });
}

/** Announces a revision of this instance's catalogue, as the original registry's `tool.update` did. */
export const tellToolUpdate = (bus: EventBus, event: ToolUpdateEvent): void =>
  bus.publish(TOPICS.toolUpdate, event);
