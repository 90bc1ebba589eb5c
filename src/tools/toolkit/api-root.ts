/**
 * @module The schema of an API root that a toolkit's configuration names in place of the vendor's (a proxy, a
 * self-hosted server, a test's fake). Paths are joined below it, so it carries nothing a request would take
 * along unseen: no user or password (a credential is named by credentialRef and injected by egress), no
 * query, no fragment.
 */
import { z } from "zod";

export interface ApiRootOptions {
  /** What the URL is, as the refusal names it; "a root URL" when omitted. */
  what?: string;
  /** Refuses http: for a root whose requests carry a credential that must not cross a network readable. */
  httpsOnly?: boolean;
}

export function apiRootUrl({ what = "a root URL", httpsOnly = false }: ApiRootOptions = {}) {
  return z
    .url({ protocol: /^https?$/ })
    .refine((value) => {
      const url = new URL(value);
      return url.username === "" && url.password === "" && url.search === "" && url.hash === "";
    }, `${what} without a query, a fragment or credentials (a credential goes in credentialRef)`)
    .refine(
      (value) => !httpsOnly || new URL(value).protocol === "https:",
      `${what} over https only: its requests carry a credential`,
    );
}
