/**
 * A local `POST /v1/embeddings` that behaves as OpenAI documents it, odd failures included: a wrong key is
 * a 401 that echoes the key masked, a batch over 2,048 inputs or holding an empty or blank string is a 400 naming only `$.input`, and
 * the data come back tagged with their input's index, here deliberately in reverse order. Vectors are a
 * hashed bag of words, so texts sharing words are close. Failures can be queued ahead of the real answers.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { HashedBagOfWordsEmbedding } from "../../src/catalog/search/embedding-provider.js";

export const TEST_API_KEY = "sk-test-embeddings";
const DIMENSIONS = 64;

/** One queued answer: a status with headers and body, a dropped connection, no answer, or the real one. */
export type Injected =
  | { status: number; headers?: Record<string, string>; body: unknown }
  | { drop: true }
  | { hang: true }
  | { pass: true };

export interface EmbeddingsRequest {
  url: string | undefined;
  authorization: string | undefined;
  body: { model?: unknown; input?: unknown; dimensions?: unknown; encoding_format?: unknown };
}

export interface FakeOpenAIEmbeddings {
  baseUrl: string;
  requests: EmbeddingsRequest[];
  inject(...answers: Injected[]): void;
  close(): Promise<void>;
}

const invalidInput = {
  error: {
    message:
      "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
    type: "invalid_request_error",
    param: null,
    code: null,
  },
};

export async function startFakeOpenAIEmbeddings(): Promise<FakeOpenAIEmbeddings> {
  const queue: Injected[] = [];
  const requests: EmbeddingsRequest[] = [];
  const embedder = new HashedBagOfWordsEmbedding(DIMENSIONS);
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let body: EmbeddingsRequest["body"] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as EmbeddingsRequest["body"];
      } catch {
        // Answered below as OpenAI answers a body it cannot read.
      }
      requests.push({ url: request.url, authorization: request.headers.authorization, body });
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        response.writeHead(status, { "content-type": "application/json", ...headers });
        response.end(typeof payload === "string" ? payload : JSON.stringify(payload));
      };
      const injected = queue.shift();
      if (injected && "drop" in injected) return request.socket.destroy();
      if (injected && "hang" in injected) return;
      if (injected && "status" in injected) return send(injected.status, injected.body, injected.headers);
      if (
        request.method !== "POST" ||
        new URL(request.url ?? "/", "http://x").pathname !== "/v1/embeddings"
      ) {
        return send(404, { error: { message: "Invalid URL", type: "invalid_request_error" } });
      }
      if (request.headers.authorization !== `Bearer ${TEST_API_KEY}`) {
        // As OpenAI does, the refusal names the key it was given, masked but for its ends.
        const given = request.headers.authorization?.replace(/^Bearer /, "") ?? "";
        return send(401, {
          error: {
            message: `Incorrect API key provided: ${given.slice(0, 3)}${"*".repeat(Math.max(0, given.length - 7))}${given.slice(-4)}.`,
            type: "invalid_request_error",
            code: "invalid_api_key",
          },
        });
      }
      const input = typeof body.input === "string" ? [body.input] : body.input;
      if (
        !Array.isArray(input) ||
        input.length === 0 ||
        input.length > 2_048 ||
        input.some((text) => typeof text !== "string" || text.trim() === "")
      ) {
        return send(400, invalidInput);
      }
      const length = typeof body.dimensions === "number" ? body.dimensions : DIMENSIONS;
      const vectors = embedder.embed(input as string[]).map((vector) => vector.slice(0, length));
      const data = vectors.map((embedding, index) => ({ object: "embedding", index, embedding })).reverse();
      send(200, {
        object: "list",
        data,
        model: body.model,
        usage: { prompt_tokens: 1, total_tokens: 1 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    inject: (...answers) => queue.push(...answers),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
