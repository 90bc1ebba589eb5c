/** @module Input fields the web tools share: the URL, extra headers and query parameters. */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";

export const urlField = z.string().min(1).max(2048).describe("absolute http or https URL");

export const headersField = z
  .record(z.string().max(100), z.string().max(4096))
  .refine((headers) => Object.keys(headers).length <= 32, "at most 32 headers")
  .optional()
  .describe(
    "extra request headers; authorization, cookie and proxy-authorization are refused (credentials are configured per host by the deployment)",
  );

export const queryField = z
  .record(z.string().max(200), z.union([z.string().max(2048), z.number(), z.boolean()]))
  .refine((query) => Object.keys(query).length <= 64, "at most 64 parameters")
  .optional()
  .describe("query parameters appended to the URL");

/** The URL with `query` appended to any parameters it already has. */
export function withQuery(url: string, query: Record<string, string | number | boolean> | undefined): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ToolFailure("invalid_input", `"${url.slice(0, 200)}" is not an absolute URL`);
  }
  for (const [name, value] of Object.entries(query ?? {})) parsed.searchParams.append(name, String(value));
  return parsed.href;
}
