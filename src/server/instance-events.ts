/**
 * @module What the instances of one deployment tell each other over the event bus: approvals parked and
 * decided (so an operator's event stream on any instance hears them), keys revoked (so no instance's key
 * cache honours one a moment longer), and catalogue revisions (`tool.update`, for hosts listening on the
 * bus). Whatever arrives is checked before it is believed: the bus is shared infrastructure, not a caller.
 */
import { z } from "zod";
import type { EventBus } from "../ports/event-bus.js";
import type { ToolUpdateEvent } from "../registry/registry.js";
import type { Logger } from "../seam/context.js";
import type { ApprovalEvent, EventHub } from "./event-hub.js";
import type { VerifiedKeys } from "./key-cache.js";

export const TOPICS = {
  approvals: "approvals",
  keys: "keys",
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

export interface KeyRevokedEvent {
  type: "key.revoked";
  keyId: string;
}
const KeyRevokedSchema = z.strictObject({ type: z.literal("key.revoked"), keyId: Text });

/** Hears the other instances: their approvals reach this instance's event stream, their revocations its key cache. */
export function hearInstances(bus: EventBus, hub: EventHub, keys: VerifiedKeys, logger: Logger): () => void {
  const believed =
    <T>(schema: z.ZodType<T>, topic: string, use: (event: T) => void) =>
    (event: unknown) => {
      const parsed = schema.safeParse(event);
      if (parsed.success) use(parsed.data);
      else logger.warn({ topic }, "an event on the bus was not the shape its topic carries; ignored");
    };
  const stops = [
    bus.subscribe(
      TOPICS.approvals,
      believed(ApprovalEventSchema, TOPICS.approvals, (event) => hub.publish(event)),
    ),
    bus.subscribe(
      TOPICS.keys,
      believed(KeyRevokedSchema, TOPICS.keys, (event) => keys.forget(event.keyId)),
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}

/** Tells the other instances of an approval this one recorded. */
export const tellApproval = (bus: EventBus, event: ApprovalEvent): void =>
  bus.publish(TOPICS.approvals, event);

/** Tells every instance that a key is revoked; the revoking process (`toolreg keys revoke`) says it. */
export const tellRevoked = (bus: EventBus, keyId: string): void =>
  bus.publish(TOPICS.keys, { type: "key.revoked", keyId } satisfies KeyRevokedEvent);

/** Announces a revision of this instance's catalogue, as the original registry's `tool.update` did. */
export const tellToolUpdate = (bus: EventBus, event: ToolUpdateEvent): void =>
  bus.publish(TOPICS.toolUpdate, event);
