/**
 * @module Replicate: a prediction created with `Prefer: wait` (the answer holds it once finished, up to 60 s),
 * then looked at with GET /v1/predictions/{id} until succeeded, failed or canceled
 * (replicate.com/docs/reference/http#create-a-prediction, /docs/topics/predictions). An official model is
 * run at /v1/models/{owner}/{name}/predictions; a pinned `owner/name:version` at /v1/predictions. The output
 * is a file URL on replicate.delivery (or a list of them). Replicate documents no idempotency key, so none
 * is sent. One adapter serves both tools: the model decides whether it makes images or videos.
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
import type { MediaKind } from "../media-sniff.js";
import { pollUntil } from "../poll.js";

export const REPLICATE = {
  baseUrl: "https://api.replicate.com/v1",
  imageModel: "black-forest-labs/flux-schnell",
  videoModel: "minimax/video-01",
  deliveryHosts: ["replicate.delivery", "*.replicate.delivery"],
  placement: { header: "authorization", scheme: "Bearer" },
} as const;

const PredictionSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
  status: z.enum(["starting", "processing", "succeeded", "failed", "canceled"]),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
});
type Prediction = z.output<typeof PredictionSchema>;

const TERMINAL = new Set(["succeeded", "failed", "canceled"]);
/** Replicate holds a `Prefer: wait` request open for at most 60 s. */
const MAX_WAIT_S = 60;

const readReplicateError =
  (vendor: Vendor): ErrorReader =>
  (response, body) => {
    const detail = errorText(body);
    // Billing: 402 when the account has no credit (replicate.com/docs/topics/billing).
    if (response.status === 402) return billingFailure(vendor, response, detail);
    if (response.status === 422) {
      return new ToolFailure(
        "invalid_input",
        `Replicate refused the model's input (422${detail ? `: ${detail}` : ""}); the configured model may take other inputs`,
        { retryable: false, details: { status: 422 } },
      );
    }
    return undefined;
  };

/** The model's path: `owner/name` runs the official model, `owner/name:version` a pinned version. */
function createRequest(baseUrl: string, model: string, input: Record<string, unknown>) {
  const [name, version] = model.split(":");
  if (version !== undefined) return { url: `${baseUrl}/predictions`, json: { version, input } };
  return { url: `${baseUrl}/models/${name}/predictions`, json: { input } };
}

/** The first file URL of a prediction's output: a string, or a list whose first item is one. */
function outputUrl(output: unknown): string | undefined {
  if (typeof output === "string") return output;
  if (Array.isArray(output) && typeof output[0] === "string") return output[0];
  return undefined;
}

export function createReplicate(parts: ProviderParts, kind: MediaKind): MediaProvider {
  const vendor: Vendor = { label: "Replicate", credentialRef: parts.credentialRef };
  const readError = readReplicateError(vendor);
  const look = (id: string, context: ToolContext) =>
    requestJson(
      parts.api,
      context,
      vendor,
      { url: `${parts.baseUrl}/predictions/${id}`, method: "GET" },
      PredictionSchema,
      readError,
    );
  return {
    name: "replicate",
    label: vendor.label,
    model: parts.model,
    async generate({ prompt, aspectRatio }, context) {
      const input = kind === "image" ? { prompt, aspect_ratio: aspectRatio, num_outputs: 1 } : { prompt };
      const { url, json } = createRequest(parts.baseUrl, parts.model, input);
      // Held open no longer than the call has left, nor than egress lets one request last.
      const budgetMs = Math.min(context.deadline - Date.now(), parts.api.policy.totalTimeoutMs);
      const secondsLeft = Math.floor(budgetMs / 1000) - 5;
      const wait = Math.max(1, Math.min(MAX_WAIT_S, secondsLeft));
      const created = await requestJson(
        parts.api,
        context,
        vendor,
        { url, method: "POST", json, headers: { prefer: `wait=${wait}` } },
        PredictionSchema,
        readError,
      );
      const what = `Replicate prediction ${created.id}`;
      const done = await pollUntil<Prediction>(created, {
        context,
        intervalMs: parts.pollIntervalMs,
        look: () => look(created.id, context),
        finished: (prediction) => TERMINAL.has(prediction.status),
        describe: (prediction) => `${what} (${parts.model}, still ${prediction.status})`,
      });
      if (done.status !== "succeeded") {
        const reason = shortDetail(done.error);
        if (reason && /nsfw|safety|sensitive|flagged/i.test(reason))
          throw contentPolicyFailure(vendor, 200, `${what}: ${reason}`);
        throw new ToolFailure(
          "upstream_error",
          `${what} ${done.status}${reason ? `: ${reason}` : ""}; calling again starts, and is billed for, a new prediction`,
          { retryable: false, details: { generationId: done.id, status: done.status } },
        );
      }
      const fileUrl = outputUrl(done.output);
      if (fileUrl === undefined) {
        throw new ToolFailure(
          "upstream_error",
          `${what} succeeded with an output that is not a file URL; the configured model ${parts.model} may not make ${kind === "image" ? "images" : "videos"}`,
          { retryable: false, details: { generationId: done.id } },
        );
      }
      const file = await downloadMedia(parts.delivery, context, {
        url: fileUrl,
        kind,
        maxBytes: parts.maxBytes,
        what,
      });
      return { ...file, generationId: done.id };
    },
  };
}
