import { describe, expect, it } from "vitest";
import { PNG } from "../fake/media-files.js";
import { failed, KEYS, useMediaHarness } from "../fake/media-harness.js";

const PROMPT = "A lighthouse on a cliff at dusk, watercolor";

describe("image_generate with ModelsLab", () => {
  const media = useMediaHarness({ image: "modelslab" });
  const generate = (input: object = {}) => media.callApproved("image_generate", { prompt: PROMPT, ...input });

  it("sends the key as the body's key field, set by egress, and keeps the image its answer names", async () => {
    const result = await generate({ aspectRatio: "16:9" });
    if (!result.ok) throw new Error(result.error.message);
    const [sent, download] = media.fake.requests;
    expect(sent?.path).toBe("/modelslab/api/v6/images/text2img");
    expect(sent?.body).toEqual({
      model_id: "flux",
      prompt: PROMPT,
      width: 1024,
      height: 576,
      samples: 1,
      safety_checker: true,
      base64: false,
      key: KEYS.modelslab,
    });
    expect(sent?.headers.authorization).toBeUndefined();
    expect(download).toMatchObject({ path: "/files/image.png", body: undefined });
    expect(JSON.stringify(download?.headers)).not.toContain(KEYS.modelslab);
    const [kept] = media.artifacts.kept;
    expect(kept?.bytes).toEqual(PNG);
    expect(result.data).toMatchObject({
      provider: "modelslab",
      model: "flux",
      mediaType: "image/png",
      generationId: expect.stringMatching(/^\d+$/),
    });
    expect(JSON.stringify(result)).not.toContain(KEYS.modelslab);
  });

  it("looks at a queued image at its fetch_result until it succeeds", async () => {
    media.fake.script("modelslab", "queued");
    const result = await generate();
    if (!result.ok) throw new Error(result.error.message);
    const id = (result.data as { generationId: string }).generationId;
    const looks = media.fake.requests.filter((request) => request.path.includes("/fetch"));
    expect(looks.map((request) => request.path)).toEqual([
      `/modelslab/api/v6/images/fetch/${id}`,
      `/modelslab/api/v6/images/fetch/${id}`,
    ]);
    expect(looks[0]?.body).toEqual({ request_id: id, key: KEYS.modelslab });
    expect(media.artifacts.kept).toHaveLength(1);
  });

  it("looks at {base}/fetch when fetch_result is not ModelsLab's own fetch address: the key goes nowhere else", async () => {
    media.fake.script("modelslab", "queued_elsewhere");
    const result = await generate();
    if (!result.ok) throw new Error(result.error.message);
    const id = (result.data as { generationId: string }).generationId;
    const looks = media.fake.requests.filter((request) => request.path.includes("/fetch"));
    expect(looks.map((request) => request.path)).toEqual([
      "/modelslab/api/v6/images/fetch",
      "/modelslab/api/v6/images/fetch",
    ]);
    expect(looks[0]?.body).toEqual({ request_id: id, key: KEYS.modelslab });
  });

  it("reports a queued image that failed with its id, and one still queued at the deadline as a timeout", async () => {
    media.fake.script("modelslab", "failed", "never");
    const error = failed(await generate());
    expect(error).toMatchObject({ code: "upstream_error", retryable: false });
    expect(error.message).toMatch(
      /^ModelsLab generation \d+ failed: Processing failed: Invalid input dimensions; calling again starts/,
    );
    const late = failed(await media.callApproved("image_generate", { prompt: PROMPT }, { timeoutMs: 600 }));
    expect(late).toMatchObject({
      code: "timeout",
      retryable: true,
      details: { generationId: expect.any(String) },
    });
    expect(late.message).toMatch(
      /^ModelsLab generation \d+ \(flux, still processing, 13 s expected\) did not finish.*\(this provider has no way to\)/,
    );
  });

  it("gives up a refused key whether it comes as a 401 or as a 200 error answer", async () => {
    media.fake.script("modelslab", "unauthorized", "key_refused_200");
    for (const how of ["a 401", "a 200"]) {
      const error = failed(await generate());
      expect(error, how).toMatchObject({
        code: "auth_required",
        details: { credentialRef: "modelslab", credentialRejected: true },
      });
      expect(error.message, how).toMatch(/refused the credential "modelslab" \(401\)/);
    }
  });

  it("says spent credits and a plan without the feature are final, and a full queue waits retry_after", async () => {
    media.fake.script("modelslab", "billing", "plan", "rate_limited", "rate_limited_bare");
    const billing = failed(await generate());
    expect(billing).toMatchObject({ code: "upstream_error", retryable: false, details: { limit: "quota" } });
    expect(billing.message).toMatch(/Insufficient credits/);
    const plan = failed(await generate());
    expect(plan).toMatchObject({ code: "upstream_error", retryable: false, details: { status: 403 } });
    expect(plan.message).toMatch(/plan does not include it.*premium subscription/);
    const limited = failed(await generate());
    expect(limited).toMatchObject({ code: "upstream_rate_limited", retryable: true, retryAfterMs: 7000 });
    expect(limited.message).toMatch(/Maximum 5 queued requests/);
    const bare = failed(await generate());
    expect(bare).toMatchObject({ code: "upstream_rate_limited", retryable: true });
    expect(bare.retryAfterMs).toBeUndefined();
  });

  it("refuses a malformed answer, a flagged image, and reads the legacy messege spelling", async () => {
    media.fake.script("modelslab", "malformed", "nsfw", "legacy_messege");
    const malformed = failed(await generate());
    expect(malformed).toMatchObject({ code: "upstream_error", retryable: false });
    expect(malformed.message).toMatch(/not its documented response \(output/);
    const nsfw = failed(await generate());
    expect(nsfw).toMatchObject({
      code: "invalid_input",
      retryable: false,
      details: { refusal: "content_policy" },
    });
    const legacy = failed(await generate());
    expect(legacy.message).toMatch(/prompt is required/);
    expect(media.artifacts.kept).toHaveLength(0);
  });

  it("looks again after a status check answers 503, or 429 after the body's retry_after, and keeps the image", async () => {
    for (const scenario of ["look_503", "look_429"] as const) {
      media.fake.requests.length = 0;
      media.fake.script("modelslab", scenario);
      const started = Date.now();
      const result = await generate();
      if (!result.ok) throw new Error(result.error.message);
      const looks = media.fake.requests.filter((request) => request.path.includes("/fetch"));
      // The failed look, then the one that finds it done.
      expect(looks, scenario).toHaveLength(2);
      if (scenario === "look_429") expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    }
    expect(media.artifacts.kept).toHaveLength(2);
  });

  it("names the generation when a status check keeps failing or the download fails after a success", async () => {
    media.fake.script("modelslab", "look_404", "foreign_url");
    const lost = failed(await generate());
    expect(lost).toMatchObject({
      code: "upstream_error",
      retryable: false,
      details: { generationId: expect.any(String) },
    });
    expect(lost.message).toMatch(/^ModelsLab generation \d+: .*Request not found/);
    const download = failed(await generate());
    expect(download).toMatchObject({ code: "egress_refused", details: { generationId: expect.any(String) } });
  });

  it("downloads only from its delivery hosts and only images", async () => {
    media.fake.script("modelslab", "foreign_url", "not_media");
    expect(failed(await generate()).code).toBe("egress_refused");
    expect(failed(await generate()).message).toMatch(/is not an image/);
    expect(media.artifacts.kept).toHaveLength(0);
  });
});
