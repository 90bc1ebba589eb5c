/**
 * @module fal: the synchronous endpoint, POST https://fal.run/{endpoint id}, `Authorization: Key <key>`; the
 * answer lists the generated images as URLs on fal.media with has_nsfw_concepts beside them
 * (fal.ai/docs/model-api-reference/image-generation-api/flux-schnell, docs.fal.ai/documentation/model-apis/
 * inference/synchronous). The queue API (queue.fal.run) is not used: an image takes seconds, and the call's
 * deadline bounds the synchronous request. fal documents no idempotency key, so none is sent.
 */
import { ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { downloadMedia } from "../media-download.js";
import {
  billingFailure,
  contentPolicyFailure,
  type ErrorReader,
  errorText,
  requestJson,
  type Vendor,
} from "../media-http.js";
import type { AspectRatio, MediaProvider, ProviderParts } from "../media-provider.js";

export const FAL = {
  baseUrl: "https://fal.run",
  model: "fal-ai/flux/schnell",
  deliveryHosts: ["fal.media", "*.fal.media"],
  placement: { header: "authorization", scheme: "Key" },
} as const;

const FalImagesSchema = z.object({
  images: z.array(z.object({ url: z.string(), content_type: z.string().optional() })).min(1),
  has_nsfw_concepts: z.array(z.boolean()).optional(),
  request_id: z.unknown().optional(),
});

/** What a fal request id looks like (a UUID); anything else is not repeated to a model. */
const REQUEST_ID = /^[A-Za-z0-9_-]{1,100}$/;

const IMAGE_SIZE: Record<AspectRatio, string> = {
  "1:1": "square_hd",
  "16:9": "landscape_16_9",
  "9:16": "portrait_16_9",
};

const readFalError =
  (vendor: Vendor): ErrorReader =>
  (response, body) => {
    const detail = errorText(body);
    // A locked account: fal answers 403 naming an exhausted balance.
    if ((response.status === 403 || response.status === 402) && /balance|billing|credit/i.test(detail ?? ""))
      return billingFailure(vendor, response, detail);
    if (response.status === 422) {
      return new ToolFailure(
        "invalid_input",
        `fal refused the endpoint's input (422${detail ? `: ${detail}` : ""}); the configured endpoint may take other inputs`,
        { retryable: false, details: { status: 422 } },
      );
    }
    return undefined;
  };

export function createFal(parts: ProviderParts): MediaProvider {
  const vendor: Vendor = { label: "fal", credentialRef: parts.credentialRef };
  return {
    name: "fal",
    label: vendor.label,
    model: parts.model,
    async generate({ prompt, aspectRatio }, context) {
      const answer = await requestJson(
        parts.api,
        context,
        vendor,
        {
          url: `${parts.baseUrl}/${parts.model}`,
          method: "POST",
          json: { prompt, image_size: IMAGE_SIZE[aspectRatio], num_images: 1, enable_safety_checker: true },
        },
        FalImagesSchema,
        readFalError(vendor),
      );
      // Vendor text bound for messages and data: kept only when it looks like an id, else dropped.
      const requestId =
        typeof answer.request_id === "string" && REQUEST_ID.test(answer.request_id)
          ? answer.request_id
          : undefined;
      const what = `fal ${parts.model}${requestId ? ` request ${requestId}` : ""}`;
      // The safety checker blanks a flagged image and says so here: that is a refusal, not a picture.
      if (answer.has_nsfw_concepts?.[0] === true)
        throw contentPolicyFailure(vendor, 200, `${what} flagged the image it made`);
      const [image] = answer.images;
      const file = await downloadMedia(parts.delivery, context, {
        url: image?.url ?? "",
        kind: "image",
        maxBytes: parts.maxBytes,
        what,
      });
      return { ...file, ...(requestId ? { generationId: requestId } : {}) };
    },
  };
}
