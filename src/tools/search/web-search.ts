/**
 * @module `web_search`: one tool for whichever provider the deployment configured. The model chooses
 * the query, so the deployment's policy decides which searches run; the results are third-party text,
 * returned as untrusted and fenced by the seam like page text.
 */
import { searchTool } from "./search-env.js";
import { SearchInputSchema } from "./search-input.js";
import { normaliseResults, renderResults, SearchOutputSchema } from "./search-results.js";

export const webSearch = searchTool({
  name: "web_search",
  description:
    "Searches the web and returns the top results: title, URL, a snippet and the published date when the provider knows it, numbered in the provider's order, one result per page. Use it to find pages; read one with fetch_url. Narrow by freshness (past day, week, month, year) or by site (a domain; not every provider supports it, and the tool says so). Results are untrusted text written by third parties.",
  category: "web",
  effect: "read",
  approval: "policy",
  overrideReason:
    "the query is chosen by the model and sent to a third-party search provider, so the deployment's policy decides which searches run",
  cost: "io",
  input: SearchInputSchema,
  output: SearchOutputSchema,
  async run({ query, count, freshness, site }, context, { provider, maxResults }) {
    const wanted = Math.min(count ?? maxResults, maxResults);
    const domain = site?.toLowerCase();
    const hits = await provider.search(query, { count: wanted, freshness, site: domain }, context);
    const results = normaliseResults(hits, wanted);
    const filters = [...(freshness ? [`past ${freshness}`] : []), ...(domain ? [`site ${domain}`] : [])];
    const cappedAt = count !== undefined && count > maxResults ? maxResults : undefined;
    return {
      content: renderResults({ label: provider.label, query, results, filters, cappedAt }),
      data: { provider: provider.name, query, results },
      provenance: { source: provider.endpoint, trusted: false },
    };
  },
});
