/**
 * @module Replicate: a prediction created with `Prefer: wait` (the answer holds it once finished, up to 60 s),
 * then looked at with GET /v1/predictions/{id} until succeeded, failed or canceled
 * (replicate.com/docs/reference/http#create-a-prediction, /docs/topics/predictions). An official model is
 * run at /v1/models/{owner}/{name}/predictions; a pinned `owner/name:version` at /v1/predictions. The output
 * is a file URL on replicate.delivery (or a list of them), or in sync mode a `data:` URI holding the file
 * (replicate-javascript's README, "sync mode"), held to the same byte cap and signature check. A prediction
 * this call gives up on is canceled with POST /v1/predictions/{id}/cancel. Replicate documents no
 * idempotency key, so none is sent. One adapter serves both tools: the model decides whether it makes
 * images or videos.
 */
import { type ToolContext, ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { decodeInline, downloadMedia, type MediaBytes } from "../media-download.js";
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
import { afterCreation, LOOK_TIMEOUT_MS, pollUntil, requestStop } from "../poll.js";

export const REPLICATE = {
  baseUrl: "https://api.replicate.com/v1",
  imageModel: "black-forest-labs/flux-schnell",
  videoModel: "minimax/video-01",
  deliveryHosts: ["replicate.delivery", "*.replicate.delivery"],
  placement: { header: "authorization", scheme: "Bearer" },
} as const;

const PredictionSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
  // aborted: its deadline passed before it could start (replicate.com/docs/topics/predictions/lifecycle).
  status: z.enum(["starting", "processing", "succeeded", "failed", "canceled", "aborted"]),
  output: z.unknown().optional(),
  error: z.unknown().optional(),
});
type Prediction = z.output<typeof PredictionSchema>;

const TERMINAL = new Set(["succeeded", "failed", "canceled", "aborted"]);
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

/** A file inline in sync mode's answer: `data:image/png;base64,…` (or a video's). */
const DATA_URI = /^data:((?:image|video)\/[A-Za-z0-9.+-]{1,100});base64,/;

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
      { url: `${parts.baseUrl}/predictions/${id}`, method: "GET", timeoutMs: LOOK_TIMEOUT_MS },
      PredictionSchema,
      readError,
    );
  const fetchOutput = async (done: Prediction, what: string, context: ToolContext): Promise<MediaBytes> => {
    const fileUrl = outputUrl(done.output);
    if (fileUrl === undefined) {
      throw new ToolFailure(
        "upstream_error",
        `${what} succeeded with an output that is not a file URL; the configured model ${parts.model} may not make ${kind === "image" ? "images" : "videos"}`,
        { retryable: false, details: { generationId: done.id } },
      );
    }
    const inline = DATA_URI.exec(fileUrl.slice(0, 200));
    if (inline)
      return decodeInline(fileUrl.slice(inline[0].length), { kind, maxBytes: parts.maxBytes, what });
    return downloadMedia(parts.delivery, context, { url: fileUrl, kind, maxBytes: parts.maxBytes, what });
  };
  return {
    name: "replicate",
    label: vendor.label,
    model: parts.model,
    async generate({ prompt, aspectRatio }, context) {
      // An image model here (flux-schnell) takes aspect_ratio; the default video model (minimax/video-01)
      // takes none, its clip's shape being its own (replicate.com/minimax/video-01/api), so it is not sent.
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
      return afterCreation(what, created.id, async () => {
        const done = await pollUntil<Prediction>(created, {
          context,
          intervalMs: parts.pollIntervalMs,
          what,
          generationId: created.id,
          look: () => look(created.id, context),
          finished: (prediction) => TERMINAL.has(prediction.status),
          describe: (prediction) => `${what} (${parts.model}, still ${prediction.status})`,
          cancel: () =>
            requestStop(parts.api, `${parts.baseUrl}/predictions/${created.id}/cancel`, "POST", context),
        });
        if (done.status === "aborted") {
          throw new ToolFailure(
            "upstream_error",
            `${what} was aborted by Replicate: its deadline passed before it could start (no worker was free), so it made nothing; a retry may work`,
            { retryable: true, details: { generationId: done.id, status: done.status } },
          );
        }
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
        const file = await fetchOutput(done, what, context);
        return {
          ...file,
          generationId: done.id,
          ...(kind === "video"
            ? {
                note: `aspectRatio ${aspectRatio} was not applied: the Replicate video model ${parts.model} is not sent one and makes clips in its own shape`,
              }
            : {}),
        };
      });
    },
  };
}
