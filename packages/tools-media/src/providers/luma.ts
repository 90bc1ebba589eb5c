/**
 * @module Luma Dream Machine: POST /dream-machine/v1/generations creates a generation, GET
 * /dream-machine/v1/generations/{id} tells its state (queued, dreaming, completed, failed) and, once
 * completed, assets.video, a URL on Luma's CDN; a failed one names its failure_reason
 * (docs.lumalabs.ai/docs/video-generation, docs.lumalabs.ai/docs/errors). Errors are `{detail}`. A
 * generation this call gives up on is deleted with DELETE /dream-machine/v1/generations/{id}, best effort
 * (Luma's API reference, "Delete a generation"; whether that stops its billing Luma does not say). Luma
 * documents no idempotency key, so none is sent.
 */
import { type ToolContext, ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { downloadMedia } from "../media-download.js";
import {
  billingFailure,
  contentPolicyFailure,
  type ErrorReader,
  errorText,
  requestJson,
  shortDetail,
  type Vendor,
} from "../media-http.js";
import type { MediaProvider, ProviderParts } from "../media-provider.js";
import { afterCreation, LOOK_TIMEOUT_MS, pollUntil, requestStop } from "../poll.js";

export const LUMA = {
  baseUrl: "https://api.lumalabs.ai/dream-machine/v1",
  model: "ray-2",
  deliveryHosts: ["storage.cdn-luma.com"],
  placement: { header: "authorization", scheme: "Bearer" },
} as const;

const GenerationSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
  state: z.enum(["queued", "dreaming", "completed", "failed"]),
  failure_reason: z.string().nullish(),
  assets: z.object({ video: z.string().nullish() }).nullish(),
});
type Generation = z.output<typeof GenerationSchema>;

const readLumaError =
  (vendor: Vendor): ErrorReader =>
  (response, body) => {
    const detail = errorText(body);
    if (/insufficient (credits|balance)|credit balance|billing/i.test(detail ?? ""))
      return billingFailure(vendor, response, detail);
    if (response.status === 400 || response.status === 422) {
      // Checked before submission (docs.lumalabs.ai/docs/errors): prompt too short or long, bad options.
      return new ToolFailure(
        "invalid_input",
        `Luma refused the request (${response.status}${detail ? `: ${detail}` : ""}); change it before retrying`,
        { retryable: false, details: { status: response.status } },
      );
    }
    return undefined;
  };

export function createLuma(parts: ProviderParts): MediaProvider {
  const vendor: Vendor = { label: "Luma", credentialRef: parts.credentialRef };
  const readError = readLumaError(vendor);
  const look = (id: string, context: ToolContext) =>
    requestJson(
      parts.api,
      context,
      vendor,
      { url: `${parts.baseUrl}/generations/${id}`, method: "GET", timeoutMs: LOOK_TIMEOUT_MS },
      GenerationSchema,
      readError,
    );
  return {
    name: "luma",
    label: vendor.label,
    model: parts.model,
    async generate({ prompt, aspectRatio }, context) {
      const created = await requestJson(
        parts.api,
        context,
        vendor,
        {
          url: `${parts.baseUrl}/generations`,
          method: "POST",
          json: { prompt, model: parts.model, aspect_ratio: aspectRatio },
        },
        GenerationSchema,
        readError,
      );
      const what = `Luma generation ${created.id}`;
      return afterCreation(what, created.id, async () => {
        const done = await pollUntil<Generation>(created, {
          context,
          intervalMs: parts.pollIntervalMs,
          what,
          generationId: created.id,
          look: () => look(created.id, context),
          finished: (generation) => generation.state === "completed" || generation.state === "failed",
          describe: (generation) => `${what} (${parts.model}, still ${generation.state})`,
          cancel: () =>
            requestStop(parts.api, `${parts.baseUrl}/generations/${created.id}`, "DELETE", context),
        });
        if (done.state === "failed") {
          const reason = shortDetail(done.failure_reason);
          // Moderation failures after submission (docs.lumalabs.ai/docs/errors): the same prompt fails again.
          if (reason && /moderation|blacklisted/i.test(reason))
            throw contentPolicyFailure(vendor, 200, `${what}: ${reason}`);
          throw new ToolFailure(
            "upstream_error",
            `${what} failed${reason ? `: ${reason}` : ""}; calling again starts, and is billed for, a new generation`,
            { retryable: false, details: { generationId: done.id } },
          );
        }
        const video = done.assets?.video;
        if (!video) {
          throw new ToolFailure(
            "upstream_error",
            `${what} completed without assets.video, which is not its documented answer`,
            { retryable: false, details: { generationId: done.id } },
          );
        }
        const file = await downloadMedia(parts.delivery, context, {
          url: video,
          kind: "video",
          maxBytes: parts.maxBytes,
          what,
        });
        return { ...file, generationId: done.id };
      });
    },
  };
}
