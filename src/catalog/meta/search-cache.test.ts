import { describe, expect, it } from "vitest";
import { createFakeClock } from "../../test/fake-clock.js";
import { createScriptedTool } from "../../test/scripted-tool.js";
import { createTestHarness, type TestHarness } from "../../test/test-harness.js";
import { generalTools } from "../../tools/general/index.js";
import { type EmbeddingProvider, HashedBagOfWordsEmbedding } from "../search/embedding-provider.js";
import { metaTools } from "./index.js";
import { FIRST_BACKOFF_MS } from "./search-cache.js";

/** An HTTP provider's refusal, as src/embeddings/openai-compatible.ts throws one. */
class StatusError extends Error {
  constructor(readonly status: number) {
    super(`embeddings request refused with HTTP ${status}`);
  }
}

/**
 * An embedding provider that fails until `up`, counting catalogue builds and query embeddings apart;
 * `failWith` is the status it fails with, and `held` keeps the next answer until its `release` is called.
 */
function flakyProvider() {
  const working = new HashedBagOfWordsEmbedding();
  const provider = {
    up: false,
    failWith: 503,
    hold: false,
    held: [] as (() => void)[],
    builds: 0,
    queries: 0,
    embed(texts: readonly string[]) {
      // find_tools embeds one query at a time; a build embeds the whole catalogue in one batch.
      if (texts.length === 1) provider.queries++;
      else provider.builds++;
      const up = provider.up;
      const answer = () => (up ? working.embed(texts) : Promise.reject(new StatusError(provider.failWith)));
      if (!provider.hold) return answer();
      return new Promise<number[][]>((resolve, reject) => {
        provider.held.push(() => Promise.resolve(answer()).then(resolve, reject));
      });
    },
  };
  return provider;
}

function served(embeddings: EmbeddingProvider) {
  const clock = createFakeClock();
  let harness: TestHarness | undefined;
  const meta = metaTools({ seam: () => (harness as TestHarness).seam, embeddings, clock: clock.now });
  harness = createTestHarness([...generalTools({}), ...meta]);
  const { seam, context } = harness;
  const find = async () => {
    const envelope = await seam.call(context(), "find_tools", { query: "arithmetic expression" });
    if (!envelope.ok) throw new Error(`expected ok, got ${JSON.stringify(envelope)}`);
    return (envelope.data as { tools: { name: string }[] }).tools.map((tool) => tool.name);
  };
  return { clock, find, registry: harness.registry };
}

/** Lets a build started in the background settle: the provider answers without timers. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Starts a query the provider holds, answered as the provider was when asked; the function returned
 * releases it and waits for its call to end.
 */
async function heldQuery(provider: ReturnType<typeof flakyProvider>, find: () => Promise<string[]>) {
  provider.hold = true;
  const early = find();
  await settle();
  provider.hold = false;
  return async () => {
    for (const release of provider.held.splice(0)) release();
    await early;
  };
}

describe("find_tools while the embedding provider is down", () => {
  it("embeds the catalogue once, answers lexically, and uses the provider again after the back-off", async () => {
    const provider = flakyProvider();
    const { clock, find } = served(provider);
    for (let call = 0; call < 4; call++) expect((await find())[0]).toBe("calculate");
    expect(provider).toMatchObject({ builds: 1, queries: 0 });

    clock.advance(FIRST_BACKOFF_MS - 1);
    await find();
    expect(provider.builds).toBe(1);

    provider.up = true;
    clock.advance(1);
    // The back-off has passed: this call starts the build and is answered lexically meanwhile.
    expect((await find())[0]).toBe("calculate");
    expect(provider).toMatchObject({ builds: 2, queries: 0 });
    await settle();
    expect((await find())[0]).toBe("calculate");
    expect(provider).toMatchObject({ builds: 2, queries: 1 });
  });

  it("doubles the back-off after each failure, and keeps it across a new revision", async () => {
    const provider = flakyProvider();
    const { clock, find, registry } = served(provider);
    await find();
    clock.advance(FIRST_BACKOFF_MS);
    await find();
    await settle();
    expect(provider.builds).toBe(2);
    clock.advance(FIRST_BACKOFF_MS);
    await find();
    expect(provider.builds).toBe(2);
    clock.advance(FIRST_BACKOFF_MS);
    await find();
    expect(provider.builds).toBe(3);

    provider.up = true;
    registry.install(createScriptedTool(["ok"], { name: "extra_tool" }));
    await find();
    // The third wait (20 s) is still in force: the new revision does not wait on the provider either.
    expect(provider.builds).toBe(3);
    clock.advance(4 * FIRST_BACKOFF_MS);
    await find();
    await settle();
    await find();
    expect(provider).toMatchObject({ builds: 4, queries: 1 });
  });

  it("counts the failures of calls already in flight as one outage", async () => {
    const provider = flakyProvider();
    provider.up = true;
    const { clock, find } = served(provider);
    await find();
    provider.up = false;
    await Promise.all(Array.from({ length: 10 }, () => find()));
    expect(provider.queries).toBe(11);

    provider.up = true;
    clock.advance(FIRST_BACKOFF_MS);
    await find();
    expect(provider.queries).toBe(12);
  });

  it("stops asking a provider that fails on queries until the back-off has passed", async () => {
    const provider = flakyProvider();
    provider.up = true;
    const { clock, find } = served(provider);
    await find();
    expect(provider).toMatchObject({ builds: 1, queries: 1 });

    provider.up = false;
    for (let call = 0; call < 3; call++) expect((await find())[0]).toBe("calculate");
    expect(provider.queries).toBe(2);

    provider.up = true;
    clock.advance(FIRST_BACKOFF_MS);
    expect((await find())[0]).toBe("calculate");
    expect(provider).toMatchObject({ builds: 1, queries: 3 });
  });

  it("does not make a new revision wait on a provider whose back-off has passed but that still fails", async () => {
    const provider = flakyProvider();
    const { clock, find, registry } = served(provider);
    await find();
    clock.advance(FIRST_BACKOFF_MS);
    provider.hold = true;
    registry.install(createScriptedTool(["ok"], { name: "extra_tool" }));
    // The rebuild is held, and the call is answered by words without waiting for it.
    expect((await find())[0]).toBe("calculate");
    expect(provider.held).toHaveLength(1);
    for (const release of provider.held.splice(0)) release();
  });

  it("keeps asking a provider that refused one query for what it held", async () => {
    const provider = flakyProvider();
    provider.up = true;
    const { find } = served(provider);
    await find();
    provider.up = false;
    provider.failWith = 400;
    await find();
    provider.up = true;
    await find();
    expect(provider.queries).toBe(3);
  });

  it("is not ended by the answer to a query asked before the failure", async () => {
    const provider = flakyProvider();
    provider.up = true;
    const { clock, find } = served(provider);
    await find();
    const answerEarly = await heldQuery(provider, find);
    provider.up = false;
    clock.advance(1);
    await find();
    provider.up = true;
    await answerEarly();
    // The failure's wait still holds: the next query is answered by words alone.
    await find();
    expect(provider.queries).toBe(3);
    clock.advance(FIRST_BACKOFF_MS);
    await find();
    expect(provider.queries).toBe(4);
  });

  it("starts no wait for a failure of a query asked before the provider last answered", async () => {
    const provider = flakyProvider();
    provider.up = true;
    const { clock, find } = served(provider);
    await find();
    provider.up = false;
    const failEarly = await heldQuery(provider, find);
    provider.up = true;
    clock.advance(1);
    await find();
    await failEarly();
    await find();
    expect(provider.queries).toBe(4);
  });
});
