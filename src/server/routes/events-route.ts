/**
 * @module `GET /api/v1/events`: Server-Sent Events. `tool.update` on every registry revision (naming the
 * tool only when this caller may see it), and `approval.requested` / `approval.resolved` for the caller's
 * tenant — all of them for its approvers, their own for everyone else — and `schedule.prompt` for the
 * principal whose schedule handed its prompt to the host.
 */
import type { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { viewContext } from "../call-context.js";
import type { ServerEvent } from "../event-hub.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";
import { DECIDE_SCOPE } from "./approvals-routes.js";

const HEARTBEAT_MS = 15_000;

export function eventsRoute(app: Hono<ServerEnv>, deps: ServerDeps): void {
  app.get("/api/v1/events", (c) => {
    const caller = c.get("caller");
    const approver = caller.operator || caller.scopes.includes(DECIDE_SCOPE);
    return streamSSE(c, async (stream) => {
      const queue: ServerEvent[] = [];
      let wake: (() => void) | undefined;
      let ended = deps.hub.closed;
      const unsubscribe = deps.hub.subscribe(
        (event) => {
          queue.push(event);
          wake?.();
        },
        () => {
          ended = true;
          wake?.();
        },
      );
      stream.onAbort(() => {
        unsubscribe();
        wake?.();
      });
      await stream.writeSSE({ event: "ready", data: JSON.stringify({ revision: deps.registry.revision }) });
      while (!ended && !stream.aborted && !stream.closed) {
        const event = queue.shift();
        if (!event) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, HEARTBEAT_MS).unref();
          });
          wake = undefined;
          if (queue.length === 0 && !ended && !stream.aborted) await stream.write(": keep-alive\n\n");
          continue;
        }
        const shown = await visibleForm(deps, caller, approver, event);
        if (shown) await stream.writeSSE({ event: event.type, data: JSON.stringify(shown) });
      }
      unsubscribe();
    });
  });
}

async function visibleForm(
  deps: ServerDeps,
  caller: ServerEnv["Variables"]["caller"],
  approver: boolean,
  event: ServerEvent,
): Promise<unknown> {
  if (event.type === "tool.update") {
    const tool = deps.registry.get(event.tool);
    const mayKnow = tool !== undefined && deps.seam.mayUse(viewContext(caller, deps.logger), tool);
    return mayKnow ? event : { type: event.type, revision: event.revision };
  }
  if (event.tenantId !== caller.tenantId) return undefined;
  // A schedule's prompt is its maker's alone: the host acting for them runs it.
  if (event.type === "schedule.prompt") return event.principalId === caller.principalId ? event : undefined;
  if (approver) return event;
  const record = await deps.stores.approvals.get({ tenantId: event.tenantId, id: event.approvalId });
  return record?.requestedBy === caller.principalId ? event : undefined;
}
