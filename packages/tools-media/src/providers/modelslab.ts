/**
 * @module ModelsLab: POST {base}/text2img with model_id, prompt and size creates an image; the answer is
 * `success` with output URLs, or `processing` with an id (and a fetch_result URL) to look at with POST
 * {base}/fetch until it is done (docs.modelslab.com/quickstart; ModelsLab/docs-v2 image-generation/flux and
 * community-models OpenAPI descriptions, excerpted beside the fake). The key travels as the body's `key`
 * field, the only place ModelsLab reads it: egress sets it (placement `{ bodyField: "key" }`), so this code
 * never holds it. The safety checker is asked for, though the flux OpenAPI description says flux does not
 * take it directly: a flagged image (nsfw_content_detected) is refused whenever one is reported. Failures
 * are `{status: "error", message}`, sent with an HTTP error status or with a 200 (the OpenAPI description
 * lists the error answer under 200 as well); a 429 names its wait in the body's `retry_after`, in seconds
 * (docs.modelslab.com/error-codes). A queued generation that fails says `failed`
 * (docs.modelslab.com/webhooks). ModelsLab documents no idempotency key and no way to stop a queued image.
 */
import {
  credentialFailure,
  type EgressResponse,
  rateLimitFailure,
  type ToolContext,
  ToolFailure,
} from "toolreg/toolkit";
import { z } from "zod";
import { downloadMedia } from "../media-download.js";
import {
  billingFailure,
  contentPolicyFailure,
  identityOf,
  requestAnswer,
  shortDetail,
  statusFailure,
  type Vendor,
} from "../media-http.js";
import type { AspectRatio, MediaProvider, ProviderParts } from "../media-provider.js";
import { afterCreation, LOOK_TIMEOUT_MS, pollUntil } from "../poll.js";

export const MODELSLAB = {
  baseUrl: "https://modelslab.com/api/v6/images",
  model: "flux",
  // The hosts its documented answers deliver from: its two R2 buckets (never all of r2.dev, which is anyone's),
  // its CDNs and the older stablediffusionapi.com one.
  deliveryHosts: [
    "pub-3626123a908346a7a8be8d9295f44e26.r2.dev",
    "pub-8b49af329fae499aa563997f5d4068a4.r2.dev",
    "cdn.modelslab.com",
    "assets.modelslab.ai",
    "cdn2.stablediffusionapi.com",
    "d1okzptojspljx.cloudfront.net",
  ],
  placement: { bodyField: "key" },
} as const;

/**
 * Every answer, whatever its status; what each status needs is checked once the status is known. Fields
 * only described (eta, fetch_result, the NSFW flag) are read when they have the documented type, so an
 * answer that spells one differently still delivers its image.
 */
const AnswerSchema = z.object({
  status: z.string(),
  id: z.union([z.number(), z.string()]).optional(),
  output: z.array(z.string()).optional(),
  fetch_result: z.unknown().optional(),
  eta: z.unknown().optional(),
  nsfw_content_detected: z.unknown().optional(),
  message: z.unknown().optional(),
  // "Some legacy endpoints may return messege instead of message" (docs.modelslab.com/error-codes).
  messege: z.unknown().optional(),
  retry_after: z.unknown().optional(),
});
type Answer = z.output<typeof AnswerSchema>;

/** Flux takes at most 1024 a side (the OpenAPI description's maximum); each ratio at that bound. */
const SIZE: Record<AspectRatio, { width: number; height: number }> = {
  "1:1": { width: 1024, height: 1024 },
  "16:9": { width: 1024, height: 576 },
  "9:16": { width: 576, height: 1024 },
};

/** What a ModelsLab id looks like: its integer, or the quickstart's `abc123-def456`; anything else is not repeated. */
const ID = /^[A-Za-z0-9_-]{1,100}$/;
const idOf = (answer: Answer) => {
  const id = typeof answer.id === "number" ? String(answer.id) : answer.id;
  return id !== undefined && ID.test(id) ? id : undefined;
};

const textOf = (answer: unknown) => {
  const record = (typeof answer === "object" && answer !== null ? answer : {}) as Record<string, unknown>;
  return shortDetail(record.message ?? record.messege);
};

/** The seconds ModelsLab's 429 body names in `retry_after`, as milliseconds, when it names a sane wait. */
function bodyWait(answer: unknown): number | undefined {
  const seconds = (answer as { retry_after?: unknown } | undefined)?.retry_after;
  return typeof seconds === "number" && seconds > 0 && seconds <= 3600 ? seconds * 1000 : undefined;
}

/**
 * What an error answer means: by its HTTP status when it has one, and by its documented message only when it
 * came with a 200 (docs.modelslab.com/error-codes: the key, credits, the plan, the queue limit), so a 500 that
 * mentions a key never gives the key up.
 */
function modelslabFailure(vendor: Vendor, response: EgressResponse, answer: unknown): ToolFailure {
  const detail = textOf(answer);
  const status = response.status;
  const says = (pattern: RegExp) => status < 400 && pattern.test(detail ?? "");
  if (status === 402 || says(/insufficient credits|add more credits|subscription (has )?expired/i))
    return billingFailure(vendor, response, detail);
  // No wait in the body leaves the default, the Retry-After header's.
  if (status === 429 || says(/rate limit exceeded|queued requests allowed/i))
    return rateLimitFailure(identityOf(vendor), response, detail, bodyWait(answer));
  if (status === 403 || says(/requires a premium subscription|not available on your (current )?plan/i)) {
    return new ToolFailure(
      "upstream_error",
      `${vendor.label} refused: this account's plan does not include it${detail ? ` (${detail})` : ""}; retrying will not help until the deployment upgrades the plan or configures another model`,
      { retryable: false, details: { status } },
    );
  }
  // A refused key is a 401 whatever HTTP status carried it, so the toolkit gives the credential up either way.
  if (status === 401 || says(/^invalid api key|api key (is )?(invalid|expired|revoked)/i))
    return credentialFailure(identityOf(vendor), { ...response, status: 401 }, detail);
  if (status >= 400) return statusFailure(vendor, response, detail);
  return new ToolFailure(
    "upstream_error",
    `${vendor.label} refused the request${detail ? ` (${detail})` : ""}; change the request or the configured model before retrying`,
    { retryable: false, details: { status } },
  );
}

/** The answer, unless it is an error; a status that is none of the documented ones is not read. */
function checked(vendor: Vendor, response: EgressResponse, answer: Answer): Answer {
  if (answer.status === "error") throw modelslabFailure(vendor, response, answer);
  if (answer.status === "success" || answer.status === "processing" || answer.status === "failed")
    return answer;
  throw new ToolFailure(
    "upstream_error",
    `${vendor.label} answered with a status that is not one of its documented ones (success, processing, error)`,
    { retryable: false, details: { status: response.status } },
  );
}

export function createModelsLab(parts: ProviderParts): MediaProvider {
  const vendor: Vendor = { label: "ModelsLab", credentialRef: parts.credentialRef };
  /** Sends one request whose answer is ModelsLab's JSON, an error answer thrown as what it means. */
  const ask = async (context: ToolContext, url: string, json: object, timeoutMs?: number) => {
    const { response, answer } = await requestAnswer(
      parts.api,
      context,
      vendor,
      { url, method: "POST", json, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
      AnswerSchema,
      (failed, body) => modelslabFailure(vendor, failed, body),
    );
    return checked(vendor, response, answer);
  };
  /** Where a queued image is looked at: its fetch_result when that is ModelsLab's own fetch address, else {base}/fetch. */
  const fetchUrl = (answer: Answer, id: string) => {
    const given = answer.fetch_result;
    if (typeof given === "string" && URL.canParse(given)) {
      const url = new URL(given);
      const base = new URL(parts.baseUrl);
      if (url.origin === base.origin && url.pathname === `${base.pathname}/fetch/${id}` && !url.search)
        return url.href;
    }
    return `${parts.baseUrl}/fetch`;
  };
  return {
    name: "modelslab",
    label: vendor.label,
    model: parts.model,
    async generate({ prompt, aspectRatio }, context) {
      const created = await ask(context, `${parts.baseUrl}/text2img`, {
        model_id: parts.model,
        prompt,
        ...SIZE[aspectRatio],
        samples: 1,
        safety_checker: true,
        base64: false,
      });
      const id = idOf(created);
      // Billed once it succeeded: a failing download names the generation, so a retry is a conscious second one.
      if (created.status === "success")
        return id === undefined
          ? keep(created, id, context)
          : afterCreation(`ModelsLab generation ${id}`, id, () => keep(created, id, context));
      if (id === undefined) {
        throw new ToolFailure(
          "upstream_error",
          `${vendor.label} answered ${created.status} without an id to follow, which is not its documented response`,
          { retryable: false },
        );
      }
      const what = `ModelsLab generation ${id}`;
      const url = fetchUrl(created, id);
      return afterCreation(what, id, async () => {
        const done = await pollUntil<Answer>(created, {
          context,
          intervalMs: parts.pollIntervalMs,
          what,
          generationId: id,
          look: () => ask(context, url, { request_id: id }, LOOK_TIMEOUT_MS),
          finished: (answer) => answer.status !== "processing",
          describe: (answer) =>
            `${what} (${parts.model}, still processing${typeof answer.eta === "number" && answer.eta > 0 ? `, ${Math.round(answer.eta)} s expected` : ""})`,
        });
        if (done.status === "failed") {
          const reason = textOf(done);
          throw new ToolFailure(
            "upstream_error",
            `${what} failed${reason ? `: ${reason}` : ""}; calling again starts, and is billed for, a new generation`,
            { retryable: false, details: { generationId: id } },
          );
        }
        return keep(done, id, context);
      });
    },
  };

  /** Downloads a finished generation's first image; a flagged one was blanked by the safety checker. */
  async function keep(answer: Answer, id: string | undefined, context: ToolContext) {
    const what = `ModelsLab ${parts.model}${id ? ` generation ${id}` : ""}`;
    if (answer.nsfw_content_detected === true || answer.nsfw_content_detected === "true")
      throw contentPolicyFailure(vendor, 200, `${what} flagged the image it made`);
    const [image] = answer.output ?? [];
    if (image === undefined) {
      throw new ToolFailure(
        "upstream_error",
        `${what} succeeded without an output URL, which is not its documented response`,
        { retryable: false, ...(id ? { details: { generationId: id } } : {}) },
      );
    }
    const file = await downloadMedia(parts.delivery, context, {
      url: image,
      kind: "image",
      maxBytes: parts.maxBytes,
      what,
    });
    return { ...file, ...(id ? { generationId: id } : {}) };
  }
}
