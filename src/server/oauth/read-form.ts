/**
 * @module Reads an `application/x-www-form-urlencoded` body, as OAuth endpoints take them (RFC 6749 §3.2),
 * under a small cap and a deadline; what cannot be read is an OAuth `invalid_request`, never a crash.
 */
import type { Context } from "hono";
import { oauthError } from "./oauth-error.js";

const MAX_FORM_BYTES = 16 * 1024;

export async function readForm(c: Context, timeoutMs: number): Promise<URLSearchParams | Response> {
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/x-www-form-urlencoded\b/i.test(type)) {
    return oauthError("invalid_request", "send the parameters as application/x-www-form-urlencoded");
  }
  const declared = Number(c.req.header("content-length") ?? Number.NaN);
  // With a declared length the HTTP parser ends the body there, so the cap holds; forms always declare one.
  if (!Number.isInteger(declared) || declared > MAX_FORM_BYTES) {
    return oauthError("invalid_request", `send a Content-Length of at most ${MAX_FORM_BYTES} bytes`, 413);
  }
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  const text = c.req.text();
  text.catch(() => {});
  try {
    const read = await Promise.race([text, deadline]);
    if (read === "timeout")
      return oauthError("invalid_request", "the request body did not arrive in time", 408);
    const form = new URLSearchParams(read);
    // RFC 6749 §3.1: a parameter sent twice is an error, not a choice for the server to make.
    const repeated = [...new Set(form.keys())].find((name) => form.getAll(name).length > 1);
    return repeated === undefined
      ? form
      : oauthError("invalid_request", `${repeated.slice(0, 50)} is sent more than once`);
  } catch (error) {
    return oauthError("invalid_request", `the request body could not be read: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}
