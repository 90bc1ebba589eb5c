/**
 * @module The URL a scrape tool takes, refused before any request when it could not be a page on the web:
 * not http(s), a user name or password in it, or too long. The fragment is dropped: it never reaches a server.
 */
import { z } from "zod";

export const MAX_URL_CHARS = 2048;

/** The URL without its fragment, or the reason it is refused. */
export function checkPageUrl(value: string): { url: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: "not an absolute URL" };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    return { problem: `${url.protocol} URLs are not read; only http and https are` };
  if (url.username || url.password)
    return { problem: "the URL carries a user name or password; a page behind a login is not scraped" };
  url.hash = "";
  return { url: url.href };
}

export const pageUrlField = z
  .string()
  .min(1)
  .max(MAX_URL_CHARS)
  .transform((value, issues) => {
    const checked = checkPageUrl(value.trim());
    if ("url" in checked) return checked.url;
    issues.addIssue({ code: "custom", message: checked.problem });
    return z.NEVER;
  })
  .describe("absolute http or https URL of the page");
