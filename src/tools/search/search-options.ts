/** @module Helpers adapters share to map `web_search`'s options onto a vendor, or refuse what it cannot do. */
import { ToolFailure } from "../../errors/tool-failure.js";

/** An option this vendor cannot honour: refused before any request, saying what would work instead. */
export function unsupportedOption(label: string, option: string, why: string): ToolFailure {
  return new ToolFailure(
    "invalid_input",
    `${option} is not supported by ${label}, the search provider this deployment uses: ${why}; search without it`,
  );
}

/** The query with the `site:` operator for a vendor that filters by site through its query syntax. */
export function withSiteOperator(query: string, site: string | undefined): string {
  return site === undefined ? query : `${query} site:${site}`;
}
