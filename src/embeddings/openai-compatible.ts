/**
 * @module An `EmbeddingProvider` over an OpenAI-compatible `POST /embeddings` endpoint: OpenAI itself, or
 * a server a deployment runs (Ollama, vLLM, text-embeddings-inference, LM Studio all speak it). The URL is
 * the deployment's configuration, never a model's, so it is not an egress-policy matter: a local server on
 * loopback is the common case.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { request } from "undici";
import { z } from "zod";
import type { EmbeddingProvider } from "../catalog/search/embedding-provider.js";

export interface OpenAICompatibleEmbeddingsOptions {
  /**
   * The API's base, up to and including its version: `https://api.openai.com/v1`, `http://127.0.0.1:11434/v1`.
   * A query string (Azure's `?api-version=`) is kept on every request.
   */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token; a local server may need none. */
  apiKey?: string | undefined;
  /** Vectors of this length, where the model can shorten them (OpenAI's text-embedding-3 models). */
  dimensions?: number | undefined;
  /** Texts per request: OpenAI takes at most 2,048 inputs in one. 256 unless given. */
  batchSize?: number;
  /** One request, connection included; 10 s unless given. */
  timeoutMs?: number;
  /** Further tries after a 429, a 5xx or a lost connection; 3 unless given. */
  maxRetries?: number;
  /**
   * The most one batch may take, its retries and their waits included; 30 s unless given. A search that
   * waits on its query's vector waits no longer, and then ranks by words (find_tools does).
   */
  deadlineMs?: number;
}

/** OpenAI documents 2,048 inputs as the most one request may carry. */
const MAX_BATCH = 2_048;

const embeddingsResponse = z.object({
  data: z.array(z.object({ index: z.number().int().nonnegative(), embedding: z.array(z.number()) })),
});

/** What the API says in an error body: `{ error: { message } }`, or a bare `{ message }` from some servers. */
const errorBody = z.union([
  z.object({ error: z.object({ message: z.string() }) }).transform((body) => body.error.message),
  z.object({ error: z.string() }).transform((body) => body.error),
  z.object({ message: z.string() }).transform((body) => body.message),
]);

export function openAICompatibleEmbeddings(options: OpenAICompatibleEmbeddingsOptions): EmbeddingProvider {
  const endpoint = new URL(options.baseUrl);
  endpoint.pathname = `${endpoint.pathname.replace(/\/+$/, "")}/embeddings`;
  // Errors name where the request went, never its credentials or query.
  const shown = `${endpoint.origin}${endpoint.pathname}`;
  const batchSize = Math.min(MAX_BATCH, Math.max(1, Math.floor(options.batchSize ?? 256)));
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxRetries = Math.max(0, Math.floor(options.maxRetries ?? 3));
  const deadlineMs = options.deadlineMs ?? 30_000;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;

  const post = async (input: string[]): Promise<number[][]> => {
    const body = JSON.stringify({
      model: options.model,
      input,
      encoding_format: "float",
      ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }),
    });
    const deadline = Date.now() + deadlineMs;
    for (let attempt = 0; ; attempt++) {
      let failure: Error;
      let retryAfterMs: number | undefined;
      try {
        const response = await request(endpoint, {
          method: "POST",
          headers,
          body,
          signal: AbortSignal.timeout(Math.max(1, Math.min(timeoutMs, deadline - Date.now()))),
        });
        const text = await response.body.text();
        if (response.statusCode >= 200 && response.statusCode < 300) return vectorsOf(text, input.length);
        failure = new EmbeddingsRequestError(response.statusCode, messageOf(text));
        if (!retryable(response.statusCode)) throw failure;
        retryAfterMs = retryAfter(response.headers);
      } catch (error) {
        if (error instanceof EmbeddingsRequestError || error instanceof EmbeddingsResponseError) throw error;
        failure = new Error(`embeddings request to ${shown} failed: ${(error as Error).message}`);
      }
      const wait = retryAfterMs ?? 500 * 2 ** attempt;
      if (attempt >= maxRetries) throw failure;
      if (Date.now() + wait >= deadline) {
        throw new Error(
          `${failure.message} (a retry in ${Math.ceil(wait / 1000)} s would pass the ${deadlineMs / 1000} s deadline)`,
          { cause: failure },
        );
      }
      await sleep(wait);
    }
  };

  return {
    async embed(texts) {
      // OpenAI refuses a batch holding an empty (or blank) text with a 400 that names no text; a blank
      // text means nothing, so it gets a zero vector, which is no closer to one tool than to another.
      const sent = texts.flatMap((text, index) => (text.trim() === "" ? [] : [index]));
      const vectors: number[][] = [];
      for (let start = 0; start < sent.length; start += batchSize) {
        const batch = sent.slice(start, start + batchSize).map((index) => texts[index] as string);
        vectors.push(...(await post(batch)));
      }
      const length = vectors[0]?.length ?? 0;
      if (vectors.some((vector) => vector.length !== length)) {
        throw new EmbeddingsResponseError("vectors of different lengths");
      }
      const all = texts.map(() => new Array<number>(length).fill(0));
      sent.forEach((index, i) => {
        all[index] = vectors[i] as number[];
      });
      return all;
    },
  };
}

export class EmbeddingsRequestError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`embeddings request refused with HTTP ${status}: ${detail}`);
    this.name = "EmbeddingsRequestError";
  }
}

export class EmbeddingsResponseError extends Error {
  constructor(detail: string) {
    super(`embeddings response not understood: ${detail}`);
    this.name = "EmbeddingsResponseError";
  }
}

/** The vectors in input order: the API tags each with its input's index and need not keep the order. */
function vectorsOf(text: string, count: number): number[][] {
  let parsed: z.infer<typeof embeddingsResponse>;
  try {
    parsed = embeddingsResponse.parse(JSON.parse(text));
  } catch {
    throw new EmbeddingsResponseError(`expected { data: [{ index, embedding }] }, got ${text.slice(0, 120)}`);
  }
  if (parsed.data.length !== count) {
    throw new EmbeddingsResponseError(`${parsed.data.length} vectors for ${count} texts`);
  }
  // As many vectors as texts, each index in range and seen once: every text has its vector.
  const vectors = new Array<number[] | undefined>(count);
  for (const { index, embedding } of parsed.data) {
    if (index >= count || vectors[index]) {
      throw new EmbeddingsResponseError(`index ${index} is out of range or repeated`);
    }
    vectors[index] = embedding;
  }
  return vectors as number[][];
}

function messageOf(text: string): string {
  try {
    const parsed = errorBody.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: a proxy's page, say; its start says enough.
  }
  return text.slice(0, 200) || "no body";
}

function retryable(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** `retry-after-ms` (OpenAI's), else `retry-after` in seconds or as a date; undefined when neither says. */
function retryAfter(headers: Record<string, string | string[] | undefined>): number | undefined {
  const first = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const inMilliseconds = first("retry-after-ms");
  const milliseconds = Number(inMilliseconds);
  if (inMilliseconds !== undefined && Number.isFinite(milliseconds) && milliseconds >= 0) return milliseconds;
  const value = first("retry-after");
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
