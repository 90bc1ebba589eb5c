/**
 * @module The events port over NATS (`nats`, an optional peer): each topic is the subject `<prefix>.<topic>`,
 * messages are JSON, an instance never hears its own publications (noEcho), and requests go to one of the
 * instances serving a topic (a queue group). The connection reconnects for as long as the process lives;
 * what is published while NATS is down is lost and logged, never the publisher's failure.
 */
import { connect, type Msg, type NatsConnection, type Subscription } from "nats";
import type { EventBus } from "../../ports/event-bus.js";
import type { Logger } from "../../seam/context.js";

export interface NatsEventBusOptions {
  /** `nats://host:port`, or several separated by commas. */
  url: string;
  /** Every subject starts with it; deployments sharing one NATS keep apart by it. Default `toolreg`. */
  subjectPrefix?: string;
  /** Names the connection in NATS's monitoring, e.g. the instance's id. */
  name?: string;
  logger: Logger;
}

const SUBJECT_PART = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
/** The queue group every instance serving a topic joins, so each request is answered once. */
const QUEUE = "toolreg-instances";
/** An answer or event past this is refused by NATS anyway (its default max_payload is 1 MiB). */
const MAX_MESSAGE_BYTES = 1024 * 1024;

export class NatsEventBus implements EventBus {
  readonly #connection: NatsConnection;
  readonly #prefix: string;
  readonly #logger: Logger;
  readonly #subscriptions = new Set<Subscription>();

  private constructor(connection: NatsConnection, prefix: string, logger: Logger) {
    this.#connection = connection;
    this.#prefix = prefix;
    this.#logger = logger;
  }

  /** Connects; rejects when NATS cannot be reached at start, so a misconfigured deployment fails loudly. */
  static async open(options: NatsEventBusOptions): Promise<NatsEventBus> {
    const prefix = options.subjectPrefix ?? "toolreg";
    if (!SUBJECT_PART.test(prefix)) {
      throw new TypeError(
        `NATS subject prefix ${JSON.stringify(prefix)}: letters, digits, _ and - in dotted parts`,
      );
    }
    const servers = options.url.split(",").map((server) => server.trim());
    const connection = await connect({
      servers,
      noEcho: true,
      name: options.name ?? "toolreg",
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      timeout: 5_000,
    });
    const bus = new NatsEventBus(connection, prefix, options.logger);
    void bus.#watch();
    return bus;
  }

  publish(topic: string, event: unknown): void {
    try {
      this.#connection.publish(this.#subject(topic), encode(event));
    } catch (error) {
      this.#logger.warn(
        { err: error, topic },
        "an event could not be published on NATS; other instances miss it",
      );
    }
  }

  subscribe(topic: string, listener: (event: unknown) => void): () => void {
    return this.#track(
      this.#connection.subscribe(this.#subject(topic), {
        callback: (error, message) => {
          if (error) return;
          const event = decode(message);
          if (event === undefined) return;
          try {
            listener(event);
          } catch (thrown) {
            this.#logger.warn({ err: thrown, topic }, "a listener failed on an event from NATS");
          }
        },
      }),
    );
  }

  serve(topic: string, answer: (request: unknown) => Promise<unknown>): () => void {
    return this.#track(
      this.#connection.subscribe(this.#subject(topic), {
        queue: QUEUE,
        callback: (error, message) => {
          if (error || !message.reply) return;
          void this.#answer(message, topic, answer);
        },
      }),
    );
  }

  async request(topic: string, body: unknown, timeoutMs: number): Promise<unknown> {
    const reply = await this.#connection.request(this.#subject(topic), encode(body), { timeout: timeoutMs });
    const answer = decode(reply);
    if (answer === undefined) throw new Error(`the answer on ${topic} was not JSON`);
    return answer;
  }

  async close(): Promise<void> {
    for (const subscription of this.#subscriptions) subscription.unsubscribe();
    this.#subscriptions.clear();
    if (this.#connection.isClosed()) return;
    // Drain: what was published goes out before the connection closes.
    await this.#connection.drain();
  }

  async #answer(message: Msg, topic: string, answer: (request: unknown) => Promise<unknown>): Promise<void> {
    const request = decode(message);
    let body: unknown;
    try {
      body =
        request === undefined ? refusal("invalid_query", "the request was not JSON") : await answer(request);
    } catch (error) {
      this.#logger.warn({ err: error, topic }, "a request on NATS failed");
      body = refusal("internal", "the request failed on the instance that took it; retry");
    }
    try {
      message.respond(encode(body));
    } catch (error) {
      this.#logger.warn({ err: error, topic }, "an answer could not be sent on NATS");
    }
  }

  #subject(topic: string): string {
    if (!SUBJECT_PART.test(topic))
      throw new TypeError(`NATS topic ${JSON.stringify(topic)} is not a subject`);
    return `${this.#prefix}.${topic}`;
  }

  #track(subscription: Subscription): () => void {
    this.#subscriptions.add(subscription);
    return () => {
      this.#subscriptions.delete(subscription);
      subscription.unsubscribe();
    };
  }

  /** Says when the bus is lost and back: events published in between are missed by the other instances. */
  async #watch(): Promise<void> {
    for await (const status of this.#connection.status()) {
      if (status.type === "disconnect") this.#logger.warn({ server: status.data }, "NATS disconnected");
      else if (status.type === "reconnect") this.#logger.info({ server: status.data }, "NATS reconnected");
    }
  }
}

/** The same shape every answer on the bus takes when it is not an answer: a code a host can act on. */
const refusal = (code: "invalid_query" | "internal", message: string) => ({
  ok: false,
  error: { code, message },
});

function encode(value: unknown): Uint8Array {
  const bytes = new TextEncoder().encode(JSON.stringify(value ?? null));
  if (bytes.length > MAX_MESSAGE_BYTES)
    throw new RangeError(`a message of ${bytes.length} bytes is over 1 MiB`);
  return bytes;
}

/** The message's JSON, or undefined when it is not JSON: a peer's bug or a stranger on the subject. */
function decode(message: Msg): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(message.data)) as unknown;
  } catch {
    return undefined;
  }
}
