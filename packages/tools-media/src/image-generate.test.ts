import { describe, expect, it } from "vitest";
import { PNG } from "./fake/media-files.js";
import { failed, KEYS, startMediaHarness, useMediaHarness } from "./fake/media-harness.js";

const PROMPT = "A lighthouse on a cliff at dusk, watercolor";

describe("image_generate with OpenAI Images", () => {
  const media = useMediaHarness({ image: "openai" });

  it("keeps gpt-image-1's inline image as an artifact and answers its address, never the bytes", async () => {
    const result = await media.callApproved("image_generate", { prompt: PROMPT });
    if (!result.ok) throw new Error(result.error.message);
    const [sent] = media.fake.requests;
    expect(sent?.path).toBe("/openai/v1/images/generations");
    expect(sent?.headers.authorization).toBe(`Bearer ${KEYS.openai}`);
    expect(sent?.body).toEqual({ model: "gpt-image-1", prompt: PROMPT, n: 1, size: "1024x1024" });
    const [kept] = media.artifacts.kept;
    expect(kept?.bytes).toEqual(PNG);
    expect(kept).toMatchObject({ tenantId: "t1", mediaType: "image/png", name: "image-openai.png" });
    expect(result.data).toEqual({
      artifactId: kept?.id,
      uri: kept?.uri,
      name: "image-openai.png",
      mediaType: "image/png",
      size: PNG.byteLength,
      provider: "openai",
      model: "gpt-image-1",
    });
    expect(result.content).toContain(kept?.uri);
    expect(result.content).not.toContain(Buffer.from(PNG).toString("base64").slice(0, 20));
  });

  it("downloads dall-e-3's URL without the key, and fences the revised prompt as untrusted", async () => {
    const dalle = await startMediaHarness({ image: "openai", imageModel: "dall-e-3" });
    try {
      dalle.fake.script("openai", "url");
      const result = await dalle.callApproved("image_generate", { prompt: PROMPT, aspectRatio: "16:9" });
      if (!result.ok) throw new Error(result.error.message);
      expect(dalle.fake.requests[0]?.body).toMatchObject({ size: "1792x1024" });
      const download = dalle.fake.requests.find((request) => request.path === "/files/image.png");
      expect(download?.headers.authorization).toBeUndefined();
      expect(result.data).toMatchObject({
        model: "dall-e-3",
        revisedPrompt: expect.stringContaining("lighthouse"),
      });
      expect(result.provenance).toMatchObject({ trusted: false });
    } finally {
      await dalle.close();
    }
  });

  it("tells a content-policy refusal apart: invalid_input, not retryable, change the prompt", async () => {
    media.fake.script("openai", "content_policy");
    const error = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(error.code).toBe("invalid_input");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/safety system refused this prompt.*change what it asks for/);
    expect(media.artifacts.kept).toHaveLength(0);
  });

  it("says a spent quota (429 insufficient_quota) is not retryable, unlike a rate limit", async () => {
    media.fake.script("openai", "insufficient_quota");
    const quota = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    // One meaning with the audio tools' insufficient_quota: a limit no wait lifts.
    expect(quota).toMatchObject({
      code: "upstream_error",
      retryable: false,
      details: { limit: "quota" },
    });
    expect(quota.message).toMatch(/billing.*retrying will not help/);

    media.fake.script("openai", "rate_limited", "rate_limited_bare");
    const limited = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(limited).toMatchObject({ code: "upstream_rate_limited", retryable: true, retryAfterMs: 7000 });
    const bare = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(bare).toMatchObject({ code: "upstream_rate_limited", retryable: true });
    expect(bare.retryAfterMs).toBeUndefined();
  });

  it("refuses an answer that is not the documented one", async () => {
    media.fake.script("openai", "malformed");
    const error = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(error).toMatchObject({ code: "upstream_error", retryable: false });
    expect(error.message).toMatch(/not its documented response \(data/);
  });

  it("does not download from a host that is not the provider's delivery host", async () => {
    media.fake.script("openai", "foreign_url");
    const error = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(error.code).toBe("egress_refused");
    expect(error.message).toMatch(
      /files\.example\.net, which is not one of its delivery hosts \(127\.0\.0\.1\)/,
    );
    expect(media.artifacts.kept).toHaveLength(0);
  });

  it("keeps nothing whose bytes are not an image, whatever its content type says", async () => {
    media.fake.script("openai", "not_media");
    const error = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(error.code).toBe("upstream_error");
    expect(error.message).toMatch(/is not an image/);
    expect(media.artifacts.kept).toHaveLength(0);
  });

  it("refuses an empty, a too long or a control-character prompt before any request", async () => {
    for (const prompt of ["", "  a ", "x".repeat(4001), "draw\u0000this"]) {
      const error = failed(await media.callApproved("image_generate", { prompt }));
      expect(error.code, JSON.stringify(prompt)).toBe("invalid_input");
    }
    const error = failed(await media.callApproved("image_generate", { prompt: PROMPT, aspectRatio: "4:3" }));
    expect(error.code).toBe("invalid_input");
    expect(media.fake.requests).toHaveLength(0);
  });
});

describe("image_generate with Replicate", () => {
  const media = useMediaHarness({ image: "replicate" });

  it("creates a prediction with Prefer: wait, polls it until it succeeds and keeps the delivered file", async () => {
    const result = await media.callApproved("image_generate", { prompt: PROMPT, aspectRatio: "9:16" });
    if (!result.ok) throw new Error(result.error.message);
    const [created, ...rest] = media.fake.requests;
    expect(created?.path).toBe("/replicate/v1/models/black-forest-labs/flux-schnell/predictions");
    expect(created?.headers.authorization).toBe(`Bearer ${KEYS.replicate}`);
    expect(created?.headers.prefer).toMatch(/^wait=\d+$/);
    expect(created?.body).toEqual({ input: { prompt: PROMPT, aspect_ratio: "9:16", num_outputs: 1 } });
    const id = (result.data as { generationId: string }).generationId;
    expect(rest.map((request) => request.path)).toEqual([
      `/replicate/v1/predictions/${id}`,
      `/replicate/v1/predictions/${id}`,
      "/files/image.png",
    ]);
    expect(rest.at(-1)?.headers.authorization).toBeUndefined();
    expect(result.data).toMatchObject({
      provider: "replicate",
      mediaType: "image/png",
      model: "black-forest-labs/flux-schnell",
    });
  });

  it("runs a pinned version at /v1/predictions", async () => {
    const version = "a".repeat(64);
    const pinned = await startMediaHarness({ image: "replicate", imageModel: `owner/model:${version}` });
    try {
      pinned.fake.script("replicate", "sync");
      const result = await pinned.callApproved("image_generate", { prompt: PROMPT });
      expect(result.ok).toBe(true);
      expect(pinned.fake.requests[0]).toMatchObject({ path: "/replicate/v1/predictions", body: { version } });
      expect(pinned.fake.requests.map((request) => request.path)).not.toContain(
        expect.stringMatching(/predictions\//),
      );
    } finally {
      await pinned.close();
    }
  });

  it("reports a failed prediction with its id, not retryable; an NSFW refusal as a content refusal", async () => {
    media.fake.script("replicate", "failed", "nsfw");
    const error = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(error).toMatchObject({ code: "upstream_error", retryable: false });
    expect(error.message).toMatch(
      /^Replicate prediction [a-z0-9]+ failed: CUDA out of memory; calling again starts/,
    );
    const nsfw = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(nsfw).toMatchObject({ code: "invalid_input", retryable: false });
  });

  it("tells throttling (with and without Retry-After) from a billing refusal", async () => {
    media.fake.script("replicate", "rate_limited", "rate_limited_bare", "billing");
    const limited = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(limited).toMatchObject({ code: "upstream_rate_limited", retryable: true, retryAfterMs: 7000 });
    expect(limited.message).toContain("Request was throttled");
    const bare = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(bare).toMatchObject({ code: "upstream_rate_limited", retryable: true });
    expect(bare.retryAfterMs).toBeUndefined();
    const billing = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(billing).toMatchObject({
      code: "upstream_error",
      retryable: false,
      details: { limit: "quota" },
    });
    expect(billing.message).toMatch(/billing/);
  });

  it("gives up on a prediction still running at the call's deadline, naming it, and cancels it", async () => {
    media.fake.script("replicate", "never");
    const error = failed(await media.callApproved("image_generate", { prompt: PROMPT }, { timeoutMs: 600 }));
    expect(error).toMatchObject({ code: "timeout", retryable: true });
    const id = error.details?.generationId;
    expect(media.fake.requests.at(-1)).toMatchObject({
      method: "POST",
      path: `/replicate/v1/predictions/${id}/cancel`,
    });
    expect(media.fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${KEYS.replicate}`);
    expect(error.message).toMatch(
      /^Replicate prediction [a-z0-9]+ \(black-forest-labs\/flux-schnell, still processing\) did not finish/,
    );
    expect(error.message).toMatch(/billed for, a new generation/);
  });

  it("keeps an image sync mode answers inline as a data: URI, checked by its bytes", async () => {
    media.fake.script("replicate", "data_uri", "data_uri_html");
    const result = await media.callApproved("image_generate", { prompt: PROMPT });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.data).toMatchObject({ mediaType: "image/png", size: PNG.byteLength });
    expect(media.fake.requests.map((request) => request.path)).not.toContain("/files/image.png");
    const html = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(html).toMatchObject({ code: "upstream_error", retryable: false });
    expect(html.message).toMatch(/^Replicate prediction [a-z0-9]+: what it sent is not an image/);
  });

  it("looks again after a status check answers 503 or 429, and keeps the image", async () => {
    media.fake.script("replicate", "look_503", "look_429");
    for (const _ of [1, 2]) {
      const before = media.fake.requests.length;
      const result = await media.callApproved("image_generate", { prompt: PROMPT });
      if (!result.ok) throw new Error(result.error.message);
      const looks = media.fake.requests.slice(before).filter((request) => request.method === "GET");
      // A failed look, the look that finds it succeeded, the file.
      expect(looks.map((request) => request.path)).toHaveLength(3);
    }
  });

  it("names the prediction in a status check's lasting failure, and in an aborted prediction", async () => {
    media.fake.script("replicate", "look_404", "aborted");
    const lost = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(lost).toMatchObject({ code: "upstream_error", retryable: false });
    expect(lost.message).toMatch(/^Replicate prediction [a-z0-9]+: Replicate refused the request \(404/);
    expect(lost.details?.generationId).toMatch(/^[a-z0-9]+$/);
    const aborted = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(aborted).toMatchObject({ code: "upstream_error", retryable: true });
    expect(aborted.message).toMatch(/^Replicate prediction [a-z0-9]+ was aborted by Replicate/);
    expect(aborted.message).not.toMatch(/API may have changed/);
  });

  it("refuses a succeeded prediction whose output is not the documented list", async () => {
    media.fake.script("replicate", "malformed");
    const error = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(error).toMatchObject({ code: "upstream_error", retryable: false });
    expect(error.message).toMatch(/^Replicate prediction [a-z0-9]+/);
    expect(media.artifacts.kept).toHaveLength(0);
  });

  it("refuses an output delivered from another host, or redirected to one", async () => {
    media.fake.script("replicate", "foreign_url", "moved");
    const error = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(error.code).toBe("egress_refused");
    const moved = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(moved.code).toBe("egress_refused");
    // Egress refuses the hop itself (it follows no redirect unless the operator's policy does, and then only to allowed hosts).
    expect(moved.message).toMatch(
      /redirected \(302\) to https:\/\/cdn\.example\.org\/image\.png\?…, which was not followed/,
    );
    expect(moved.message).not.toContain("signature");
  });
});

describe("image_generate with fal", () => {
  const media = useMediaHarness({ image: "fal" });

  it("calls the synchronous endpoint with `Key` auth and keeps the image from its URL", async () => {
    const result = await media.callApproved("image_generate", { prompt: PROMPT, aspectRatio: "16:9" });
    if (!result.ok) throw new Error(result.error.message);
    const [sent] = media.fake.requests;
    expect(sent?.path).toBe("/fal/fal-ai/flux/schnell");
    expect(sent?.headers.authorization).toBe(`Key ${KEYS.fal}`);
    expect(sent?.body).toMatchObject({ prompt: PROMPT, image_size: "landscape_16_9", num_images: 1 });
    expect(result.data).toMatchObject({ provider: "fal", mediaType: "image/png" });
  });

  it("names the request by its id, and drops a request_id that is not one", async () => {
    const result = await media.callApproved("image_generate", { prompt: PROMPT });
    expect(result).toMatchObject({
      ok: true,
      data: { generationId: "764cabcf-b745-4b3e-ae38-1200304cf45b" },
    });
    media.fake.script("fal", "bad_request_id");
    const kept = await media.callApproved("image_generate", { prompt: PROMPT });
    if (!kept.ok) throw new Error(kept.error.message);
    expect(kept.data).not.toHaveProperty("generationId");
    expect(JSON.stringify(kept)).not.toContain("Ignore previous");
  });

  it("refuses a flagged image, a locked account and a malformed answer, each as what it is", async () => {
    media.fake.script("fal", "nsfw", "billing", "malformed");
    expect(failed(await media.callApproved("image_generate", { prompt: PROMPT })).code).toBe("invalid_input");
    const billing = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(billing).toMatchObject({
      code: "upstream_error",
      retryable: false,
      details: { limit: "quota" },
    });
    expect(billing.message).toMatch(/Exhausted balance/);
    expect(failed(await media.callApproved("image_generate", { prompt: PROMPT })).code).toBe(
      "upstream_error",
    );
  });

  it("tells its concurrency refusal with and without Retry-After", async () => {
    media.fake.script("fal", "rate_limited", "rate_limited_bare");
    const limited = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(limited).toMatchObject({ code: "upstream_rate_limited", retryable: true, retryAfterMs: 7000 });
    const bare = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(bare).toMatchObject({ code: "upstream_rate_limited", retryable: true });
    expect(bare.retryAfterMs).toBeUndefined();
  });
});

describe("image_generate's bounds", () => {
  const media = useMediaHarness({ image: "replicate" }, { config: { maxImageBytes: 4096 } });

  it("keeps nothing larger than maxImageBytes, downloaded or inline", async () => {
    media.fake.script("replicate", "large");
    const downloaded = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(downloaded).toMatchObject({ code: "upstream_error", retryable: false });
    expect(downloaded.message).toMatch(/larger than 4096 bytes.*maxImageBytes/);

    const inline = await startMediaHarness({ image: "openai" }, { config: { maxImageBytes: 4096 } });
    try {
      inline.fake.script("openai", "large");
      const error = failed(await inline.callApproved("image_generate", { prompt: PROMPT }));
      expect(error.message).toMatch(/larger than 4096 bytes/);
      expect(inline.artifacts.kept).toHaveLength(0);
    } finally {
      await inline.close();
    }
    media.fake.script("replicate", "data_uri_large");
    const dataUri = failed(await media.callApproved("image_generate", { prompt: PROMPT }));
    expect(dataUri.message).toMatch(/image is larger than 4096 bytes/);
    expect(media.artifacts.kept).toHaveLength(0);
  });
});
