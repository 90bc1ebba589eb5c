/**
 * @module Reads a JSON request body under a size cap and a deadline: a body that is too big is a 413, one
 * that trickles in is a 408, one that is not JSON is a 400 naming where it broke — never a crash.
 */
import type { Context } from "hono";
import { problem } from "./problem.js";

export const MAX_BODY_BYTES = 1024 * 1024;
export const BODY_TIMEOUT_MS = 10_000;

export type BodyResult = { ok: true; value: unknown } | { ok: false; response: Response };

export async function readJsonBody(
  c: Context,
  options: { maxBytes?: number; timeoutMs?: number; optional?: boolean } = {},
): Promise<BodyResult> {
  const maxBytes = options.maxBytes ?? MAX_BODY_BYTES;
  const declared = Number(c.req.header("content-length") ?? Number.NaN);
  if (declared > maxBytes) return tooLarge(maxBytes);
  const type = c.req.header("content-type") ?? "";
  // With a declared length the HTTP parser ends the body there, so it is read whole, in one call: on
  // @hono/node-server that reads the socket directly, where `body` would first build a full Request and a
  // web stream, costing more than the tool call itself. A body of no declared length streams under a cap.
  const stream = Number.isInteger(declared) ? undefined : c.req.raw.body;
  if (stream === null) {
    return options.optional
      ? { ok: true, value: undefined }
      : { ok: false, response: problem(400, "body_required", "this request needs a JSON body") };
  }
  if (type && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    return {
      ok: false,
      response: problem(
        415,
        "unsupported_media_type",
        `send the body as application/json, not ${type.slice(0, 100)}`,
      ),
    };
  }
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), options.timeoutMs ?? BODY_TIMEOUT_MS);
  });
  let read: Buffer | "timeout" | "too_large";
  try {
    read = stream ? await readCapped(stream, maxBytes, deadline) : await readWhole(c.req.raw, deadline);
  } catch (error) {
    return {
      ok: false,
      response: problem(
        400,
        "body_unreadable",
        `the request body could not be read: ${(error as Error).message}`,
      ),
    };
  } finally {
    clearTimeout(timer);
  }
  if (read === "too_large") return tooLarge(maxBytes);
  if (read === "timeout") {
    return {
      ok: false,
      response: problem(
        408,
        "body_timeout",
        "the request body did not arrive in time",
        {},
        { connection: "close" },
      ),
    };
  }
  const text = read.toString("utf8");
  if (text.trim() === "" && options.optional) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return {
      ok: false,
      response: problem(400, "malformed_json", `the body is not valid JSON: ${(error as Error).message}`, {
        position: jsonErrorPosition(error as Error, text),
      }),
    };
  }
}

async function readWhole(request: Request, deadline: Promise<"timeout">): Promise<Buffer | "timeout"> {
  const whole = request.arrayBuffer();
  // Past the deadline nobody waits for it: the 408 closes the connection, which ends the read with an error.
  whole.catch(() => {});
  const result = await Promise.race([whole, deadline]);
  return result === "timeout" ? result : Buffer.from(result);
}

async function readCapped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  deadline: Promise<"timeout">,
): Promise<Buffer | "timeout" | "too_large"> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const next = await Promise.race([reader.read(), deadline]);
    if (next === "timeout") {
      void reader.cancel().catch(() => {});
      return next;
    }
    if (next.done) return Buffer.concat(chunks);
    size += next.value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => {});
      return "too_large";
    }
    chunks.push(next.value);
  }
}

function tooLarge(maxBytes: number): BodyResult {
  return {
    ok: false,
    response: problem(
      413,
      "body_too_large",
      `the body is over ${maxBytes} bytes`,
      { maxBytes },
      { connection: "close" },
    ),
  };
}

/** V8 says "at position N" (or, newer, "line L column C"); the offset is what a client can point at. */
function jsonErrorPosition(error: Error, text: string): number | undefined {
  const position = /position (\d+)/.exec(error.message);
  if (position) return Number(position[1]);
  if (/Unexpected end of JSON input/.test(error.message)) return text.length;
  return undefined;
}
