/** @module Token counting behind a port: o200k (gpt-tokenizer) by default, any tokenizer a deployment prefers. */

export interface TokenCounter {
  /** The encoding's name, reported beside every figure counted with it. */
  readonly encoding: string;
  count(text: string): number;
}

/**
 * The o200k_base counter (GPT-4o and later). Loaded on first use: its tables take about half a second to
 * read, which a host that never budgets should not pay.
 */
let o200k: Promise<TokenCounter> | undefined;

export function loadO200kCounter(): Promise<TokenCounter> {
  // One counter for the process, so what it counted stays cached (entryTokens caches per counter).
  o200k ??= import("gpt-tokenizer/encoding/o200k_base").then(
    ({ countTokens }) => ({ encoding: "o200k_base", count: (text: string) => countTokens(text) }),
    (error: unknown) => {
      o200k = undefined;
      throw error;
    },
  );
  return o200k;
}

/** Tokens of a value as it goes over the wire: compact JSON. */
export function countJsonTokens(counter: TokenCounter, value: unknown): number {
  return counter.count(JSON.stringify(value));
}
