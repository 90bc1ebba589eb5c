/** @module The pages the vendor fakes "read": by URL, what the vendor would answer for each. */

export interface VendorPage {
  title: string;
  markdown: string;
  /** The URL that answered (after redirects), when it is not the one asked for. */
  finalUrl?: string;
  /** The status the site answered the vendor with. */
  statusCode?: number;
  links?: string[];
}

export type VendorPages = Record<string, VendorPage>;

/** Scenarios both vendors document, each answered in that vendor's own shape. */
export type VendorScenario =
  | "credits"
  | "rate-limited"
  | "rate-limited-bare"
  | "unauthorized"
  | "server-error"
  | "not-json"
  | "wrong-shape";

export const HTML_PAGE = {
  status: 200,
  headers: { "content-type": "text/html; charset=utf-8" },
  body: "<!doctype html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>",
};
