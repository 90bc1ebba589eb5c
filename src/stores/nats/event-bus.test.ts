/** @module The NATS event bus against a real NATS server: what one instance says, the others hear. */
import { connect } from "nats";
import { afterEach, describe, expect, it } from "vitest";
import { freshPrefix, NATS_URL, natsAvailable } from "../../../test/support/nats.js";
import { NatsEventBus } from "./event-bus.js";

const reachable = await natsAvailable("event bus");
const warnings: unknown[] = [];
const logger = {
  debug: () => {},
  info: () => {},
  warn: (object: object) => warnings.push(object),
  error: () => {},
};

const opened: NatsEventBus[] = [];
const open = async (subjectPrefix: string) => {
  const bus = await NatsEventBus.open({ url: NATS_URL, subjectPrefix, logger });
  opened.push(bus);
  return bus;
};
afterEach(async () => {
  for (const bus of opened.splice(0)) await bus.close();
  warnings.length = 0;
});

/** Resolves with what `listener` collected once `count` arrived, or what there is after `ms`. */
function collect(bus: NatsEventBus, topic: string, count: number, ms = 2_000) {
  const heard: unknown[] = [];
  return new Promise<unknown[]>((resolve) => {
    const timer = setTimeout(() => resolve(heard), ms);
    bus.subscribe(topic, (event) => {
      heard.push(event);
      if (heard.length === count) {
        clearTimeout(timer);
        resolve(heard);
      }
    });
  });
}

/** A round trip on the connection: NATS has taken every subscription sent before it. */
const flush = (bus: NatsEventBus) => bus.request("nothing-serves-this", {}, 50).catch(() => {});

describe.runIf(reachable)("NatsEventBus", () => {
  it("delivers what one instance publishes to the others, in order, and never back to itself", async () => {
    const prefix = freshPrefix();
    const [a, b, c] = [await open(prefix), await open(prefix), await open(prefix)];
    const atB = collect(b, "approvals", 3);
    const atC = collect(c, "approvals", 3);
    const atA = collect(a, "approvals", 1, 500);
    await flush(b);
    await flush(c);
    for (const n of [1, 2, 3]) a.publish("approvals", { n });
    expect(await atB).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(await atC).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(await atA).toEqual([]);
  });

  it("keeps deployments apart by prefix and topics apart by subject", async () => {
    const prefix = freshPrefix();
    const [a, b, stranger] = [await open(prefix), await open(prefix), await open(freshPrefix())];
    const keys = collect(b, "keys", 1, 500);
    const elsewhere = collect(stranger, "approvals", 1, 500);
    await flush(b);
    await flush(stranger);
    a.publish("approvals", { n: 1 });
    expect(await keys).toEqual([]);
    expect(await elsewhere).toEqual([]);
  });

  it("ignores a message that is not JSON, and a listener that throws does not stop the next event", async () => {
    const prefix = freshPrefix();
    const b = await open(prefix);
    const heard: unknown[] = [];
    b.subscribe("approvals", (event) => {
      heard.push(event);
      if ((event as { n: number }).n === 1) throw new Error("a broken listener");
    });
    await flush(b);
    const raw = await connect({ servers: NATS_URL });
    raw.publish(`${prefix}.approvals`, new TextEncoder().encode("{not json"));
    raw.publish(`${prefix}.approvals`, new TextEncoder().encode(JSON.stringify({ n: 1 })));
    raw.publish(`${prefix}.approvals`, new TextEncoder().encode(JSON.stringify({ n: 2 })));
    await raw.flush();
    await raw.close();
    await expect.poll(() => heard, { timeout: 2_000 }).toEqual([{ n: 1 }, { n: 2 }]);
    expect(warnings).toHaveLength(1);
  });

  it("answers each request once, from one of the instances serving the topic", async () => {
    const prefix = freshPrefix();
    const [a, b, client] = [await open(prefix), await open(prefix), await open(prefix)];
    const answered: string[] = [];
    for (const [name, bus] of [
      ["a", a],
      ["b", b],
    ] as const) {
      bus.serve("tool.query", async (request) => {
        answered.push(name);
        return { from: name, echo: request };
      });
    }
    await flush(a);
    await flush(b);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) => client.request("tool.query", { n }, 2_000)),
    );
    expect(answers.map((answer) => (answer as { echo: unknown }).echo)).toEqual(
      Array.from({ length: 20 }, (_, n) => ({ n })),
    );
    expect(answered).toHaveLength(20);
  });

  it("answers a failing handler with an error body instead of leaving the asker waiting", async () => {
    const prefix = freshPrefix();
    const [server, client] = [await open(prefix), await open(prefix)];
    server.serve("tool.query", async () => {
      throw new Error("database down");
    });
    await flush(server);
    expect(await client.request("tool.query", {}, 2_000)).toEqual({
      ok: false,
      error: { code: "internal", message: "the request failed on the instance that took it; retry" },
    });
  });

  it("rejects a request nobody serves, and publishing after close loses the event without throwing", async () => {
    const bus = await open(freshPrefix());
    await expect(bus.request("tool.query", {}, 500)).rejects.toThrow();
    await bus.close();
    expect(() => bus.publish("approvals", { n: 1 })).not.toThrow();
    expect(warnings).toHaveLength(1);
  });

  it("refuses to start on a NATS that does not answer, and a prefix that is not a subject", async () => {
    await expect(NatsEventBus.open({ url: "nats://127.0.0.1:1", logger })).rejects.toThrow();
    await expect(NatsEventBus.open({ url: NATS_URL, subjectPrefix: "a b", logger })).rejects.toThrow(
      /prefix/,
    );
  });
});
