import { approvalIdOf } from "toolreg";
import { describe, expect, it } from "vitest";
import { MP4 } from "./fake/media-files.js";
import { failed, KEYS, useMediaHarness } from "./fake/media-harness.js";

const PROMPT = "A paper boat drifting down a rainy street, slow dolly shot";

describe("video_generate with Luma Dream Machine", () => {
  const media = useMediaHarness({ video: "luma" });

  it("parks for a person's approval and sends nothing until then", async () => {
    const parked = await media.seam.call(media.context(), "video_generate", { prompt: PROMPT });
    expect(approvalIdOf(parked)).toEqual(expect.any(String));
    expect(media.fake.requests).toHaveLength(0);
  });

  it("once approved, creates a generation, polls queued → dreaming → completed and keeps the video", async () => {
    const result = await media.callApproved("video_generate", { prompt: PROMPT, aspectRatio: "16:9" });
    if (!result.ok) throw new Error(result.error.message);
    const [created] = media.fake.requests;
    expect(created?.path).toBe("/luma/dream-machine/v1/generations");
    expect(created?.headers.authorization).toBe(`Bearer ${KEYS.luma}`);
    expect(created?.body).toEqual({ prompt: PROMPT, model: "ray-2", aspect_ratio: "16:9" });
    const id = (result.data as { generationId: string }).generationId;
    expect(media.fake.requests.map((request) => request.path)).toEqual([
      "/luma/dream-machine/v1/generations",
      `/luma/dream-machine/v1/generations/${id}`,
      `/luma/dream-machine/v1/generations/${id}`,
      "/files/video.mp4",
    ]);
    expect(media.artifacts.kept[0]?.bytes).toEqual(MP4);
    expect(result.data).toMatchObject({
      mediaType: "video/mp4",
      name: "video-luma.mp4",
      size: MP4.byteLength,
      provider: "luma",
      model: "ray-2",
    });
  });

  it("reports a moderation failure as a content refusal, and another failure naming the generation", async () => {
    media.fake.script("luma", "moderation", "failed");
    const moderated = failed(await media.callApproved("video_generate", { prompt: PROMPT }));
    expect(moderated).toMatchObject({ code: "invalid_input", retryable: false });
    expect(moderated.message).toMatch(/Advanced prompt moderation failed/);
    const other = failed(await media.callApproved("video_generate", { prompt: PROMPT }));
    expect(other).toMatchObject({ code: "upstream_error", retryable: false });
    expect(other.message).toMatch(/^Luma generation [0-9a-f-]+ failed: Prompt processing failed/);
  });

  it("gives up on a generation still dreaming at the deadline, naming its id, and deletes it", async () => {
    media.fake.script("luma", "never");
    const error = failed(await media.callApproved("video_generate", { prompt: PROMPT }, { timeoutMs: 600 }));
    expect(error).toMatchObject({ code: "timeout", retryable: true });
    expect(error.message).toMatch(/^Luma generation [0-9a-f-]+ \(ray-2, still dreaming\) did not finish/);
    expect(media.fake.requests.at(-1)).toMatchObject({
      method: "DELETE",
      path: `/luma/dream-machine/v1/generations/${error.details?.generationId}`,
    });
  });

  it("takes a status check's 503 as a generation still running, and keeps the video", async () => {
    media.fake.script("luma", "look_503");
    const result = await media.callApproved("video_generate", { prompt: PROMPT });
    if (!result.ok) throw new Error(result.error.message);
    // A failed look, the look that finds it completed, the file.
    expect(media.fake.requests.filter((request) => request.method === "GET")).toHaveLength(3);
    expect(media.artifacts.kept[0]?.bytes).toEqual(MP4);
  });

  it("says the last failed status check when time runs out, naming the generation", async () => {
    media.fake.script("luma", "look_404");
    const lost = failed(await media.callApproved("video_generate", { prompt: PROMPT }));
    expect(lost).toMatchObject({ code: "upstream_error", retryable: false });
    expect(lost.message).toMatch(/^Luma generation [0-9a-f-]+: Luma refused the request \(404/);
    expect(lost.details?.generationId).toMatch(/^[0-9a-f-]+$/);
  });

  it("refuses a completed generation without its video, a spent balance and a video on another host", async () => {
    media.fake.script("luma", "malformed", "billing", "foreign_url", "rate_limited", "rate_limited_bare");
    expect(failed(await media.callApproved("video_generate", { prompt: PROMPT })).message).toMatch(
      /completed without assets\.video/,
    );
    const billing = failed(await media.callApproved("video_generate", { prompt: PROMPT }));
    expect(billing).toMatchObject({
      code: "upstream_error",
      retryable: false,
      details: { limit: "quota" },
    });
    expect(billing.message).toMatch(/billing/);
    expect(failed(await media.callApproved("video_generate", { prompt: PROMPT })).code).toBe(
      "egress_refused",
    );
    expect(failed(await media.callApproved("video_generate", { prompt: PROMPT }))).toMatchObject({
      code: "upstream_rate_limited",
      retryAfterMs: 7000,
    });
    const bare = failed(await media.callApproved("video_generate", { prompt: PROMPT }));
    expect(bare).toMatchObject({ code: "upstream_rate_limited", retryable: true });
    expect(bare.retryAfterMs).toBeUndefined();
    expect(media.artifacts.kept).toHaveLength(0);
  });
});

describe("video_generate with Replicate", () => {
  const media = useMediaHarness({ video: "replicate" });

  it("runs the configured video model and keeps its MP4", async () => {
    const result = await media.callApproved("video_generate", { prompt: PROMPT });
    if (!result.ok) throw new Error(result.error.message);
    expect(media.fake.requests[0]).toMatchObject({
      path: "/replicate/v1/models/minimax/video-01/predictions",
      body: { input: { prompt: PROMPT } },
    });
    expect(result.data).toMatchObject({
      mediaType: "video/mp4",
      provider: "replicate",
      model: "minimax/video-01",
    });
  });

  it("says in the result that the aspect ratio was not applied, as minimax/video-01 takes none", async () => {
    const result = await media.callApproved("video_generate", { prompt: PROMPT, aspectRatio: "9:16" });
    if (!result.ok) throw new Error(result.error.message);
    expect(result.data).toMatchObject({ note: expect.stringMatching(/^aspectRatio 9:16 was not applied/) });
    expect(result.content).toMatch(/Note: aspectRatio 9:16 was not applied/);
  });

  it("keeps nothing that is not a video", async () => {
    media.fake.script("replicate", "not_media");
    const error = failed(await media.callApproved("video_generate", { prompt: PROMPT }));
    expect(error.message).toMatch(/is not a video/);
  });
});
