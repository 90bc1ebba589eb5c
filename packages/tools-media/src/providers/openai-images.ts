/**
 * @module OpenAI Images: POST /v1/images/generations. gpt-image-1 answers the image inline as b64_json;
 * dall-e-2 and dall-e-3 answer a URL by default (response_format is not sent, since gpt-image-1 refuses
 * it), fetched from OpenAI's delivery host; dall-e-3 also answers its revised_prompt
 * (platform.openai.com/docs/api-reference/images/create, /images/object). OpenAI documents no idempotency
 * key for this endpoint, so none is sent.
 */
import { ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { decodeInline, downloadMedia } from "../media-download.js";
import {
  billingFailure,
  contentPolicyFailure,
  type ErrorReader,
  requestJson,
  shortDetail,
  type Vendor,
} from "../media-http.js";
import type { AspectRatio, MediaProvider, ProviderParts } from "../media-provider.js";

export const OPENAI_IMAGES = {
  baseUrl: "https://api.openai.com/v1",
  model: "gpt-image-1",
  deliveryHosts: ["oaidalleapiprodscus.blob.core.windows.net"],
  placement: { header: "authorization", scheme: "Bearer" },
} as const;

const ImageObjectSchema = z.object({
  b64_json: z.string().optional(),
  url: z.string().optional(),
  revised_prompt: z.string().optional(),
});
const ImagesResponseSchema = z.object({ created: z.number(), data: z.array(ImageObjectSchema).min(1) });

/** Error codes of a spent quota or budget (platform.openai.com/docs/guides/error-codes): a wait does not lift them. */
const BILLING_CODES = new Set([
  "insufficient_quota",
  "billing_hard_limit_reached",
  "credit_balance_exhausted",
  "organization_spend_limit_exceeded",
  "project_spend_limit_exceeded",
  "organization_usage_limit_exceeded",
]);

/** The sizes each model takes for each aspect ratio. */
function sizeFor(model: string, aspect: AspectRatio): string {
  const wide = model.startsWith("dall-e-3") ? "1792x1024" : "1536x1024";
  const tall = model.startsWith("dall-e-3") ? "1024x1792" : "1024x1536";
  if (model.startsWith("dall-e-2")) return "1024x1024";
  return aspect === "16:9" ? wide : aspect === "9:16" ? tall : "1024x1024";
}

const readOpenAiError =
  (vendor: Vendor): ErrorReader =>
  (response, body) => {
    const error = (body as { error?: { code?: unknown; type?: unknown; message?: unknown } } | undefined)
      ?.error;
    if (typeof error !== "object" || error === null) return undefined;
    const detail = shortDetail(error.message);
    const code = typeof error.code === "string" ? error.code : undefined;
    const type = typeof error.type === "string" ? error.type : undefined;
    if ((code && BILLING_CODES.has(code)) || (type && BILLING_CODES.has(type)))
      return billingFailure(vendor, response, detail);
    // A safety refusal: content_policy_violation (dall-e), moderation_blocked (GPT image models), or the
    // older form with code null and only the message saying so.
    if (
      response.status === 400 &&
      (code === "content_policy_violation" ||
        code === "moderation_blocked" ||
        /safety system/i.test(detail ?? ""))
    )
      return contentPolicyFailure(vendor, response.status, detail);
    return undefined;
  };

export function createOpenAiImages(parts: ProviderParts): MediaProvider {
  const vendor: Vendor = { label: "OpenAI", credentialRef: parts.credentialRef };
  return {
    name: "openai",
    label: vendor.label,
    model: parts.model,
    async generate({ prompt, aspectRatio }, context) {
      const answer = await requestJson(
        parts.api,
        context,
        vendor,
        {
          url: `${parts.baseUrl}/images/generations`,
          method: "POST",
          json: { model: parts.model, prompt, n: 1, size: sizeFor(parts.model, aspectRatio) },
        },
        ImagesResponseSchema,
        readOpenAiError(vendor),
      );
      const [image] = answer.data;
      const what = `OpenAI ${parts.model}`;
      const revised = image?.revised_prompt ? { revisedPrompt: image.revised_prompt } : {};
      if (image?.b64_json) {
        return {
          ...decodeInline(image.b64_json, { kind: "image", maxBytes: parts.maxBytes, what }),
          ...revised,
        };
      }
      if (image?.url) {
        const file = await downloadMedia(parts.delivery, context, {
          url: image.url,
          kind: "image",
          maxBytes: parts.maxBytes,
          what,
        });
        return { ...file, ...revised };
      }
      throw new ToolFailure(
        "upstream_error",
        `${what} answered an image with neither b64_json nor url, which is not its documented answer`,
        { retryable: false },
      );
    },
  };
}
