/**
 * @module A fake of OpenAI's two audio endpoints on 127.0.0.1, answering as OpenAI documents: POST
 * /v1/audio/transcriptions (multipart, https://platform.openai.com/docs/api-reference/audio/createTranscription)
 * and POST /v1/audio/speech (JSON, https://platform.openai.com/docs/api-reference/audio/createSpeech). It
 * logs each request (the multipart form parsed by the platform's own parser), checks the speech request and
 * its own JSON answers against OpenAI's OpenAPI description, and answers a queued failure once (`next`).
 */
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { sniffAudio } from "../audio-format.js";
import { openApiProblems } from "./openapi-check.js";

export const OPENAI_TEST_KEY = "sk-test-audio-0123456789";
export const OPENAI_CREDENTIAL_REF = "openai";

/** Each failure OpenAI documents for these endpoints, in its own shape; the comment names the page. */
export type OpenAiScenario =
  /** 429 with Retry-After — https://platform.openai.com/docs/guides/rate-limits (and error-codes#api-errors). */
  | "rate-limited"
  /** 429 without Retry-After: the headers a gateway may drop — https://platform.openai.com/docs/guides/rate-limits. */
  | "rate-limited-no-retry-after"
  /** 429 insufficient_quota, credits spent — https://platform.openai.com/docs/guides/error-codes#api-errors. */
  | "quota"
  /** 400 invalid file format — https://platform.openai.com/docs/guides/speech-to-text (supported formats). */
  | "bad-format"
  /** 413 over the 25 MB upload limit — https://platform.openai.com/docs/guides/speech-to-text (file uploads). */
  | "too-large-413"
  /** 400 naming the 25 MB limit, as some paths answer it — https://platform.openai.com/docs/guides/speech-to-text. */
  | "too-large-400"
  /** 401 invalid_api_key — https://platform.openai.com/docs/guides/error-codes#api-errors. */
  | "unauthorized"
  /** 500 server_error — https://platform.openai.com/docs/guides/error-codes#api-errors. */
  | "server-error"
  /** A 200 that is not OpenAI's JSON: a proxy's or captive portal's page. */
  | "malformed"
  /** A 200 JSON transcription without its required `text`: the shape changed. */
  | "wrong-shape";

export interface SeenAudioRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The multipart fields, the file among them, for a transcription. */
  form?: { fields: Record<string, string>; file?: { name: string; type: string; bytes: Buffer } };
  /** The JSON body, for speech. */
  json?: Record<string, unknown>;
}

interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON (checked as `shape`); a string or buffer as it is. */
  body: unknown;
  shape?: "CreateTranscriptionResponseJson" | "ErrorResponse";
}

export interface OpenAiAudioFake {
  /** The API root to configure the toolkit with, `http://127.0.0.1:<port>/v1`. */
  url: string;
  requests: SeenAudioRequest[];
  /** The next request is answered with this failure, once. */
  next(scenario: OpenAiScenario): void;
  /** What the fake "hears" in these exact bytes; any other audio is transcribed as a fixed sentence. */
  hears(bytes: Uint8Array, text: string): void;
  /** Answers that broke OpenAI's description, and speech requests that did: a test expects none. */
  problems: string[];
  close(): Promise<void>;
}

export const DEFAULT_TRANSCRIPT = "The fake heard a short recording.";
const MODELS = new Set(["whisper-1", "gpt-4o-transcribe", "gpt-4o-mini-transcribe"]);
const MAX_UPLOAD = 25 * 1024 * 1024;

const error = (message: string, type: string, code: string | null, param: string | null = null) => ({
  error: { message, type, param, code },
});

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * The WAV as OpenAI's speech endpoint streams it: it cannot know the length when it writes the header, so the
 * RIFF and `data` sizes are the placeholder 0xFFFFFFFF (hexdumps of /v1/audio/speech answers in
 * github.com/speaches-ai/speaches/issues/493 and github.com/remsky/Kokoro-FastAPI/pull/94); a reader that trusts
 * them sees a file of 4 GB.
 */
export function streamedWav(wav: Buffer): Buffer {
  const streamed = Buffer.from(wav);
  streamed.writeUInt32LE(0xffffffff, 4);
  streamed.writeUInt32LE(0xffffffff, 40);
  return streamed;
}

/** Half a second of 24 kHz 16-bit mono silence: the WAV OpenAI's speech endpoint would send, in shape. */
export function silentWav(seconds = 0.5): Buffer {
  const rate = 24_000;
  const data = Math.round(rate * seconds) * 2;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
}

/** An ID3v2 tag and one silent MPEG-1 Layer III frame: enough to be recognised as MP3. */
const SILENT_MP3 = Buffer.concat([
  Buffer.from("ID3\x04\x00\x00\x00\x00\x00\x00", "latin1"),
  Buffer.from([0xff, 0xfb, 0x90, 0x64]),
  Buffer.alloc(413),
]);

function failure(scenario: OpenAiScenario): Reply {
  switch (scenario) {
    case "rate-limited":
      return {
        status: 429,
        headers: { "retry-after": "20", "x-ratelimit-remaining-requests": "0" },
        body: error(
          "Rate limit reached for requests per minute; try again in 20s.",
          "requests",
          "rate_limit_exceeded",
        ),
        shape: "ErrorResponse",
      };
    case "rate-limited-no-retry-after":
      return {
        status: 429,
        body: error("Rate limit reached for requests per minute.", "requests", "rate_limit_exceeded"),
        shape: "ErrorResponse",
      };
    case "quota":
      return {
        status: 429,
        body: error(
          "You exceeded your current quota, please check your plan and billing details.",
          "insufficient_quota",
          "insufficient_quota",
        ),
        shape: "ErrorResponse",
      };
    case "bad-format":
      return {
        status: 400,
        body: error(
          "Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']",
          "invalid_request_error",
          null,
        ),
        shape: "ErrorResponse",
      };
    case "too-large-413":
      return {
        status: 413,
        body: error("Maximum content size limit (26214400) exceeded.", "server_error", null),
        shape: "ErrorResponse",
      };
    case "too-large-400":
      return {
        status: 400,
        body: error(
          "Audio file is too large; the file size must be below 25 MB.",
          "invalid_request_error",
          null,
          "file",
        ),
        shape: "ErrorResponse",
      };
    case "unauthorized":
      return {
        status: 401,
        body: error(
          "Incorrect API key provided. You can find your API key in your account settings.",
          "invalid_request_error",
          "invalid_api_key",
        ),
        shape: "ErrorResponse",
      };
    case "server-error":
      return {
        status: 500,
        body: error("The server had an error while processing your request.", "server_error", null),
        shape: "ErrorResponse",
      };
    case "malformed":
      return {
        status: 200,
        headers: { "content-type": "text/html; charset=utf-8" },
        body: "<!doctype html><title>Just a moment...</title><p>Checking your browser</p>",
      };
    case "wrong-shape":
      return { status: 200, body: { transcript: "moved" } };
  }
}

async function parseForm(request: SeenAudioRequest): Promise<SeenAudioRequest["form"]> {
  const contentType = String(request.headers["content-type"] ?? "");
  if (!contentType.startsWith("multipart/form-data")) return undefined;
  // The platform's own multipart parser, so the fake does not agree with the adapter by construction.
  const data = await new Request("http://fake/", {
    method: "POST",
    headers: { "content-type": contentType },
    body: request.body,
  }).formData();
  const fields: Record<string, string> = {};
  let file: { name: string; type: string; bytes: Buffer } | undefined;
  for (const [name, value] of data.entries()) {
    if (typeof value === "string") fields[name] = value;
    else if (name === "file")
      file = { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
  }
  return { fields, ...(file ? { file } : {}) };
}

export async function startOpenAiAudioFake(): Promise<OpenAiAudioFake> {
  const requests: SeenAudioRequest[] = [];
  const queued: OpenAiScenario[] = [];
  const heard = new Map<string, string>();
  const problems: string[] = [];

  const transcription = (request: SeenAudioRequest): Reply => {
    const { form } = request;
    if (!form?.file || !form.fields.model)
      return {
        status: 400,
        body: error("file and model are required.", "invalid_request_error", null),
        shape: "ErrorResponse",
      };
    if (!MODELS.has(form.fields.model))
      return {
        status: 404,
        body: error(
          `The model '${form.fields.model}' does not exist or you do not have access to it.`,
          "invalid_request_error",
          "model_not_found",
        ),
        shape: "ErrorResponse",
      };
    if (form.file.bytes.length > MAX_UPLOAD) return failure("too-large-413");
    // OpenAI reads the format from the file name's extension and the bytes: both must agree.
    const extension = form.file.name.split(".").pop() ?? "";
    if (
      !sniffAudio(form.file.bytes) ||
      !["flac", "m4a", "mp3", "mp4", "ogg", "wav", "webm"].includes(extension)
    )
      return failure("bad-format");
    const text = heard.get(sha(form.file.bytes)) ?? DEFAULT_TRANSCRIPT;
    return {
      status: 200,
      body: { text, usage: { type: "duration", seconds: 2 } },
      shape: "CreateTranscriptionResponseJson",
    };
  };

  const speech = (request: SeenAudioRequest): Reply => {
    const problemsOfRequest = openApiProblems("CreateSpeechRequest", request.json);
    if (problemsOfRequest.length > 0) {
      problems.push(...problemsOfRequest);
      return {
        status: 400,
        body: error(problemsOfRequest.join("; "), "invalid_request_error", null),
        shape: "ErrorResponse",
      };
    }
    const format = request.json?.response_format ?? "mp3";
    if (format === "wav")
      return { status: 200, headers: { "content-type": "audio/wav" }, body: streamedWav(silentWav()) };
    return { status: 200, headers: { "content-type": "audio/mpeg" }, body: SILENT_MP3 };
  };

  const answer = async (request: SeenAudioRequest): Promise<Reply> => {
    if (request.headers.authorization !== `Bearer ${OPENAI_TEST_KEY}`) return failure("unauthorized");
    const scenario = queued.shift();
    if (scenario) return failure(scenario);
    if (request.method === "POST" && request.path === "/v1/audio/transcriptions") {
      request.form = await parseForm(request);
      return transcription(request);
    }
    if (request.method === "POST" && request.path === "/v1/audio/speech") {
      try {
        request.json = JSON.parse(request.body.toString("utf8"));
      } catch {
        return {
          status: 400,
          body: error("We could not parse the JSON body of your request.", "invalid_request_error", null),
          shape: "ErrorResponse",
        };
      }
      return speech(request);
    }
    return {
      status: 404,
      body: error(`Invalid URL (${request.method} ${request.path})`, "invalid_request_error", null),
      shape: "ErrorResponse",
    };
  };

  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", async () => {
      const request: SeenAudioRequest = {
        method: incoming.method ?? "",
        path: new URL(incoming.url ?? "/", "http://fake").pathname,
        headers: incoming.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(request);
      const reply = await answer(request);
      if (reply.shape) problems.push(...openApiProblems(reply.shape, reply.body));
      const raw = typeof reply.body === "string" || Buffer.isBuffer(reply.body);
      outgoing.writeHead(reply.status, {
        ...(raw ? {} : { "content-type": "application/json" }),
        "x-request-id": `req_${requests.length}`,
        ...reply.headers,
      });
      outgoing.end(raw ? (reply.body as string | Buffer) : JSON.stringify(reply.body));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    problems,
    next: (scenario) => queued.push(scenario),
    hears: (bytes, text) => heard.set(sha(bytes), text),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
