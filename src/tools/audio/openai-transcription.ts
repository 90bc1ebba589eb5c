/**
 * @module OpenAI's transcription adapter: the audio as multipart form data to POST /audio/transcriptions
 * (https://platform.openai.com/docs/api-reference/audio/createTranscription) with `response_format=json`,
 * through egress, which injects the key. OpenAI takes files up to 25 MB
 * (https://platform.openai.com/docs/guides/speech-to-text).
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import type { EgressClient } from "../../egress/egress-client.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import type { TranscriptionProvider, TranscriptionRequest } from "../../ports/transcription-provider.js";
import { callOptions } from "../toolkit/egress-call.js";
import { sizeOf } from "./audio-env.js";
import { openAiFailure } from "./openai-failure.js";

/** OpenAI's documented upload limit: 25 MB, which its 413 counts as 26,214,400 bytes. */
export const OPENAI_MAX_AUDIO_BYTES = 25 * 1024 * 1024;
/** A transcript of 25 MB of audio is a few hundred KB of JSON at most. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

/** The `json` response format's body (CreateTranscriptionResponseJson); other fields are ignored. */
const TranscriptionJsonSchema = z.object({ text: z.string() });

export interface OpenAiTranscriptionSetup {
  /** The API root, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  /** Reaches only OpenAI's host, and injects the key there. */
  egress: EgressClient;
  credentialRef: string;
  model: string;
}

/** One field of a multipart/form-data body (RFC 7578). */
function part(
  boundary: string,
  name: string,
  value: string | Uint8Array,
  file?: { name: string; type: string },
) {
  const disposition = file
    ? `form-data; name="${name}"; filename="${file.name}"\r\ncontent-type: ${file.type}`
    : `form-data; name="${name}"`;
  return [
    Buffer.from(`--${boundary}\r\ncontent-disposition: ${disposition}\r\n\r\n`),
    Buffer.from(value),
    Buffer.from("\r\n"),
  ];
}

/** The request's body and its content type; the file name and type are ours, never the uploader's. */
export function transcriptionForm(request: TranscriptionRequest, model: string) {
  const boundary = `toolreg-${randomBytes(16).toString("hex")}`;
  const body = Buffer.concat([
    ...part(boundary, "model", model),
    ...part(boundary, "response_format", "json"),
    ...(request.language ? part(boundary, "language", request.language) : []),
    ...part(boundary, "file", request.bytes, { name: request.fileName, type: request.mediaType }),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

export function createOpenAiTranscriptionProvider(setup: OpenAiTranscriptionSetup): TranscriptionProvider {
  const endpoint = `${setup.baseUrl.replace(/\/+$/, "")}/audio/transcriptions`;
  const identity = { label: `OpenAI (${setup.model})`, credentialRef: setup.credentialRef };
  return {
    name: "openai",
    label: identity.label,
    endpoint,
    maxBytes: OPENAI_MAX_AUDIO_BYTES,
    async transcribe(request, context) {
      const { body, contentType } = transcriptionForm(request, setup.model);
      // The operator's egress cap on what a request may send applies here too: say so before sending.
      const cap = setup.egress.policy.maxRequestBytes;
      if (body.byteLength > cap) {
        throw new ToolFailure(
          "precondition_failed",
          `this deployment's egress policy sends at most ${sizeOf(cap)} per request, and this audio needs ${sizeOf(body.byteLength)}; the operator can raise maxRequestBytes (OpenAI takes up to 25 MB), or send a shorter recording`,
          { details: { reason: "egress_request_cap", limit: cap, bytes: body.byteLength } },
        );
      }
      const response = await setup.egress.request(endpoint, {
        method: "POST",
        headers: { accept: "application/json", "content-type": contentType },
        body,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        ...callOptions(context),
      });
      if (response.status >= 400) throw openAiFailure(identity, response);
      const details = { status: response.status, contentType: response.headers["content-type"] ?? "" };
      let json: unknown;
      try {
        if (response.truncated) throw new RangeError("cut");
        json = JSON.parse(response.body.toString("utf8"));
      } catch {
        throw new ToolFailure(
          "upstream_error",
          `${identity.label} answered ${response.status} with something other than its JSON transcript (content type ${details.contentType || "none"}); the endpoint may be wrong or behind a proxy`,
          { retryable: false, details },
        );
      }
      const parsed = TranscriptionJsonSchema.safeParse(json);
      if (!parsed.success) {
        throw new ToolFailure(
          "upstream_error",
          `${identity.label} answered JSON without the transcript's text field; the API may have changed`,
          { retryable: false, details },
        );
      }
      return { text: parsed.data.text };
    },
  };
}
