/**
 * @module `GET /api/v1/events` read as an operator's console would, each event stamped with the moment it
 * arrived, so a figure can say how long an event took to cross from one instance to another.
 */

export interface HeardEvent {
  event: string;
  data: Record<string, unknown>;
  /** Date.now() when it arrived, comparable with the `at` of an event recorded on this host. */
  arrivedAt: number;
}

export interface EventStream {
  /** The first event `matches` accepts, once it has arrived; rejects after `timeoutMs`. */
  first(matches: (event: HeardEvent) => boolean, timeoutMs: number): Promise<HeardEvent>;
  close(): void;
}

/** Connects as `key`; resolves once the stream has said `ready`, so nothing after that is missed. */
export async function listen(url: string, key: string): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/v1/events`, {
    headers: { authorization: `Bearer ${key}`, accept: "text/event-stream" },
    signal: controller.signal,
  });
  if (response.status !== 200 || !response.body)
    throw new Error(`the event stream answered ${response.status}`);
  const heard: HeardEvent[] = [];
  let wake = () => {};
  void (async () => {
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      const arrivedAt = Date.now();
      text += decoder.decode(chunk, { stream: true });
      // Each event ends with a blank line; what follows the last one has yet to arrive.
      const blocks = text.split("\n\n");
      text = blocks.pop() ?? "";
      for (const block of blocks) {
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data !== undefined) heard.push({ event, data: JSON.parse(data), arrivedAt });
      }
      wake();
    }
  })().catch(() => {});
  const stream: EventStream = {
    async first(matches, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = heard.find(matches);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching event within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
      }
    },
    close: () => controller.abort(),
  };
  await stream.first((event) => event.event === "ready", 5_000);
  return stream;
}
