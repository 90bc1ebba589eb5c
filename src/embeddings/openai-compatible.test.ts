import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeOpenAIEmbeddings,
  startFakeOpenAIEmbeddings,
  TEST_API_KEY,
} from "../../test/support/openai-embeddings-server.js";
import { HybridToolSearch } from "../catalog/search/hybrid-tool-search.js";
import { ToolSearchIndex } from "../catalog/search/tool-search-index.js";
import {
  EmbeddingsRequestError,
  EmbeddingsResponseError,
  type OpenAICompatibleEmbeddingsOptions,
  openAICompatibleEmbeddings,
} from "./openai-compatible.js";

let api: FakeOpenAIEmbeddings;
beforeAll(async () => {
  api = await startFakeOpenAIEmbeddings();
});
afterAll(() => api.close());
beforeEach(() => {
  api.requests.length = 0;
});

const provider = (options: Partial<OpenAICompatibleEmbeddingsOptions> = {}) =>
  openAICompatibleEmbeddings({
    baseUrl: `${api.baseUrl}/`,
    model: "text-embedding-3-small",
    apiKey: TEST_API_KEY,
    ...options,
  });

const cosine = (a: number[], b: number[]) => {
  const dot = a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
  return dot / Math.sqrt(a.reduce((s, v) => s + v * v, 0) * b.reduce((s, v) => s + v * v, 0));
};

describe("openAICompatibleEmbeddings", () => {
  it("puts the vectors back in input order, batch by batch, with the key, model and dimensions sent", async () => {
    const texts = Array.from({ length: 5 }, (_, i) => `text number ${i} about topic ${i % 2}`);
    const vectors = await provider({ batchSize: 2, dimensions: 32 }).embed(texts);
    expect(api.requests.map((request) => (request.body.input as string[]).length)).toEqual([2, 2, 1]);
    expect(api.requests[0]).toMatchObject({
      authorization: `Bearer ${TEST_API_KEY}`,
      body: { model: "text-embedding-3-small", dimensions: 32, encoding_format: "float" },
    });
    expect(vectors.every((vector) => vector.length === 32)).toBe(true);
    // The server answers in reverse; each vector must still be its own text's.
    const [alone = []] = await provider({ dimensions: 32 }).embed([texts[3]!]);
    expect(cosine(vectors[3]!, alone)).toBeCloseTo(1, 9);
    expect(cosine(vectors[3]!, vectors[1]!)).toBeGreaterThan(cosine(vectors[3]!, vectors[2]!));
  });

  it("never sends a blank text, which the API refuses, and gives it a zero vector in its place", async () => {
    const vectors = await provider().embed(["send an email", "", "   ", "fetch a page"]);
    expect(api.requests).toHaveLength(1);
    expect(api.requests[0]?.body.input).toEqual(["send an email", "fetch a page"]);
    expect(vectors).toHaveLength(4);
    expect(vectors[1]).toEqual(new Array(64).fill(0));
    expect(vectors[2]).toEqual(new Array(64).fill(0));
    expect(vectors[3]!.some((value) => value !== 0)).toBe(true);
    expect(await provider().embed([""])).toEqual([[]]);
    expect(await provider().embed([])).toEqual([]);
  });

  it("refuses at once, with the API's own message, what retrying cannot mend", async () => {
    const wrongKey = provider({ apiKey: "sk-wrong" }).embed(["hello"]);
    await expect(wrongKey).rejects.toThrow(EmbeddingsRequestError);
    await expect(wrongKey).rejects.toThrow("HTTP 401: Incorrect API key provided: sk-*rong.");
    api.inject({ status: 400, body: { error: { message: "'$.input' is invalid." } } });
    await expect(provider().embed(["hello"])).rejects.toThrow("HTTP 400: '$.input' is invalid.");
    expect(api.requests).toHaveLength(2);
    const missing = provider({ baseUrl: `${api.baseUrl}/nowhere` }).embed(["hello"]);
    await expect(missing).rejects.toThrow("HTTP 404: Invalid URL");
  });

  it("waits out a 429 as long as retry-after-ms or retry-after says, and retries a 5xx and a dropped connection", async () => {
    api.inject(
      { drop: true },
      {
        status: 429,
        headers: { "retry-after-ms": "30" },
        body: { error: { message: "Rate limit reached" } },
      },
      { status: 503, headers: { "retry-after": "0" }, body: "upstream unavailable" },
    );
    const started = Date.now();
    const [vector] = await provider({ maxRetries: 3 }).embed(["hello"]);
    expect(vector).toHaveLength(64);
    expect(api.requests).toHaveLength(4);
    // 500 ms of back-off after the dropped connection, 30 as the 429 asked, none after the 503; had the
    // headers been ignored, 500 + 1,000 + 2,000.
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(520);
    expect(elapsed).toBeLessThan(1_500);
  });

  it("gives up after its retries with the last refusal, and does not wait out a retry-after it will not honour", async () => {
    api.inject(
      {
        status: 500,
        headers: { "retry-after": "0" },
        body: { error: { message: "The server had an error" } },
      },
      {
        status: 500,
        headers: { "retry-after": "0" },
        body: { error: { message: "The server had an error" } },
      },
    );
    await expect(provider({ maxRetries: 1 }).embed(["hello"])).rejects.toThrow(
      "HTTP 500: The server had an error",
    );
    expect(api.requests).toHaveLength(2);
    api.inject({ status: 429, headers: { "retry-after": "3600" }, body: { error: { message: "quota" } } });
    const started = Date.now();
    await expect(provider().embed(["hello"])).rejects.toThrow(
      "HTTP 429: quota (a retry in 3600 s would pass the 30 s deadline)",
    );
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("times a request out rather than hang, says where it was going, and keeps to its deadline", async () => {
    api.inject({ hang: true });
    await expect(provider({ timeoutMs: 200, maxRetries: 0 }).embed(["hello"])).rejects.toThrow(
      `embeddings request to ${api.baseUrl}/embeddings failed`,
    );
    // One hang: past the deadline there is no second attempt to answer (a hang left queued would stall the
    // next test's first request for its whole timeout).
    api.inject({ hang: true });
    const sent = api.requests.length;
    const started = Date.now();
    const late = provider({ timeoutMs: 5_000, deadlineMs: 400 }).embed(["hello"]);
    await expect(late).rejects.toThrow("would pass the 0.4 s deadline");
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(api.requests.length - sent).toBe(1);
  });

  it("keeps the base URL's query on every request and names no credentials or query in its errors", async () => {
    const url = new URL(api.baseUrl);
    url.username = "user";
    url.password = "secret";
    url.search = "?api-version=2024-10-21";
    const [vector] = await provider({ baseUrl: url.href }).embed(["hello"]);
    expect(vector).toHaveLength(64);
    expect(api.requests.at(-1)?.url).toBe("/v1/embeddings?api-version=2024-10-21");
    api.inject({ drop: true });
    const failed = provider({ baseUrl: url.href, maxRetries: 0 }).embed(["hello"]);
    await expect(failed).rejects.toThrow(`embeddings request to ${api.baseUrl}/embeddings failed`);
    await expect(failed).rejects.not.toThrow(/secret|api-version/);
  });

  it("refuses a 200 it cannot read: not JSON, a vector missing or repeated, lengths that differ", async () => {
    const answers: unknown[] = [
      "<html>proxy login</html>",
      { data: [{ index: 0, embedding: [1, 0] }] },
      {
        data: [
          { index: 0, embedding: [1, 0] },
          { index: 0, embedding: [0, 1] },
        ],
      },
      {
        data: [
          { index: 0, embedding: [1, 0] },
          { index: 1, embedding: [0, 1, 0] },
        ],
      },
    ];
    for (const body of answers) {
      api.inject({ status: 200, body });
      await expect(provider().embed(["one", "two"])).rejects.toThrow(EmbeddingsResponseError);
    }
  });

  it("serves hybrid search: a query finds the tool whose words its vector shares", async () => {
    const hybrid = new HybridToolSearch(new ToolSearchIndex(), provider());
    await hybrid.add([
      { name: "send_email", description: "Send an email message to a recipient." },
      { name: "fetch_url", description: "Download a web page and return it as Markdown." },
    ]);
    expect((await hybrid.search("download the page", { limit: 1 }))[0]?.name).toBe("fetch_url");
  });
});
