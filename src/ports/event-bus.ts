/**
 * @module The events port: what one instance tells the others (an approval parked or decided, a key revoked)
 * and the questions any instance answers (bus discovery). Without a bus an instance hears only itself.
 * Messages are JSON; a listener treats each as untrusted input and checks its shape.
 */

export interface EventBus {
  /** Sends to every other instance listening on `topic`. Never throws: a bus that is down loses the event, logged. */
  publish(topic: string, event: unknown): void;
  /** Hears what other instances publish on `topic` (never this instance's own); returns the unsubscribe. */
  subscribe(topic: string, listener: (event: unknown) => void): () => void;
  /** Answers requests on `topic`, one instance of those serving it per request; returns the stop. */
  serve(topic: string, answer: (request: unknown) => Promise<unknown>): () => void;
  /** Asks whichever instance serves `topic`; rejects when none answers within `timeoutMs`. */
  request(topic: string, body: unknown, timeoutMs: number): Promise<unknown>;
  close(): Promise<void>;
}
