/**
 * @module The events one MCP session has sent, kept in memory so a client whose SSE stream broke can
 * resume it with `Last-Event-ID`: the transport numbers every message it sends through this store and,
 * on a resuming GET, replays what followed the client's last event on that event's stream.
 */
import { randomUUID } from "node:crypto";
import type {
  EventId,
  EventStore,
  StreamId,
} from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

interface StoredEvent {
  streamId: StreamId;
  message: JSONRPCMessage;
}

/**
 * A session's events, the newest `limit` of them (1,000 unless given): past that the oldest is dropped, and
 * an id that was dropped, or that another store gave, replays nothing. Kept and dropped with its session.
 */
export class SessionEventStore implements EventStore {
  // A Map keeps insertion order, which is the order the events were sent in.
  readonly #events = new Map<EventId, StoredEvent>();
  readonly #limit: number;
  // Ids begin with this store's own random prefix, so no other session's id is ever found here.
  readonly #prefix = randomUUID();
  #sequence = 0;

  constructor(limit = 1_000) {
    if (!Number.isInteger(limit) || limit < 1) {
      throw new TypeError("SessionEventStore: limit must be a positive integer");
    }
    this.#limit = limit;
  }

  /** Events held. */
  get size(): number {
    return this.#events.size;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const eventId = `${this.#prefix}.${++this.#sequence}`;
    this.#events.set(eventId, { streamId, message });
    if (this.#events.size > this.#limit) {
      const [oldest] = this.#events.keys();
      if (oldest !== undefined) this.#events.delete(oldest);
    }
    return eventId;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: EventId,
    { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> },
  ): Promise<StreamId> {
    const last = this.#events.get(lastEventId);
    // The transport asks getStreamIdForEventId first and refuses an id it does not know; this is a guard.
    if (!last) return "";
    // The live map, not a copy: a message stored while the replay awaits is replayed too, since the
    // resumed stream is registered only once the replay ends (the transport skips what a replay sent).
    let after = false;
    for (const [eventId, event] of this.#events) {
      if (eventId === lastEventId) after = true;
      // A stream's priming event is stored as an empty object, only for its id: there is no message to send.
      else if (after && event.streamId === last.streamId && "jsonrpc" in event.message) {
        await send(eventId, event.message);
      }
    }
    return last.streamId;
  }
}
