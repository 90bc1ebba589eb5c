import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { SessionEventStore } from "./session-event-store.js";

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/message",
  params: { n },
});
// The transport stores a stream's priming event as an empty object, for its id alone.
const priming = {} as JSONRPCMessage;

async function replay(store: SessionEventStore, lastEventId: string) {
  const sent: { eventId: string; message: JSONRPCMessage }[] = [];
  const streamId = await store.replayEventsAfter(lastEventId, {
    send: async (eventId, message) => {
      sent.push({ eventId, message });
    },
  });
  return { streamId, sent };
}

describe("SessionEventStore", () => {
  it("replays what followed an event on that event's stream, in order, without priming events", async () => {
    const store = new SessionEventStore();
    const first = await store.storeEvent("call", priming);
    await store.storeEvent("call", note(1));
    await store.storeEvent("listen", note(99));
    const second = await store.storeEvent("call", note(2));
    await store.storeEvent("call", priming);
    const third = await store.storeEvent("call", note(3));

    expect(await store.getStreamIdForEventId(second)).toBe("call");
    const all = await replay(store, first);
    expect(all.streamId).toBe("call");
    expect(all.sent.map(({ message }) => message)).toEqual([note(1), note(2), note(3)]);
    expect((await replay(store, second)).sent).toEqual([{ eventId: third, message: note(3) }]);
    expect((await replay(store, third)).sent).toEqual([]);
  });

  it("keeps the newest events up to its limit, and replays nothing after a dropped id", async () => {
    const store = new SessionEventStore(3);
    const ids = [];
    for (let n = 1; n <= 5; n++) ids.push(await store.storeEvent("call", note(n)));
    expect(store.size).toBe(3);
    const [dropped, , kept] = ids as [string, string, string];
    expect(await store.getStreamIdForEventId(dropped)).toBeUndefined();
    expect(await replay(store, dropped)).toEqual({ streamId: "", sent: [] });
    expect((await replay(store, kept)).sent.map(({ message }) => message)).toEqual([note(4), note(5)]);
  });

  it("knows no id another store gave, though both count from one", async () => {
    const mine = new SessionEventStore();
    const theirs = new SessionEventStore();
    await mine.storeEvent("call", note(1));
    await mine.storeEvent("call", note(2));
    const foreign = await theirs.storeEvent("call", note(1));
    expect(await mine.getStreamIdForEventId(foreign)).toBeUndefined();
    expect(await replay(mine, foreign)).toEqual({ streamId: "", sent: [] });
  });

  it("refuses a limit that is not a positive integer", () => {
    expect(() => new SessionEventStore(0)).toThrow(/positive integer/);
    expect(() => new SessionEventStore(1.5)).toThrow(/positive integer/);
  });
});
