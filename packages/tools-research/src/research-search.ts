/**
 * @module `research_search`: one query to Wikipedia, arXiv, PubMed and Hacker News at once. Sources are
 * asked concurrently and each answers or fails on its own: a failed source is reported in the answer (its
 * code, its message, whether and when a retry may help) beside the others' results, and the call fails
 * only when every source asked failed. Titles, snippets and authors are third-party text, returned as
 * untrusted and fenced by the seam.
 */
import { type ToolContext, ToolFailure } from "toolreg/toolkit";
import { researchTool } from "./research-env.js";
import { ResearchInputSchema } from "./research-input.js";
import {
  type ResearchOutput,
  ResearchOutputSchema,
  type ResearchResult,
  renderResearch,
  resultsOf,
  SOURCE_LABELS,
  type SourceReport,
} from "./research-results.js";
import type { ResearchSource, SourceQuery } from "./research-source.js";

export const researchSearch = researchTool({
  name: "research_search",
  description:
    "Searches scholarly and community sources at once: Wikipedia (encyclopedia articles), arXiv (preprints: physics, maths, computer science, biology, economics), PubMed (biomedical and life-science literature) and Hacker News (technology stories and discussions). Returns each source's results with title, link, authors, date, a snippet and identifiers (arXiv id, PMID, DOI). Pick the sources that fit the question; narrow by date (from/to, which leaves Wikipedia out) or sort newest first. A source that fails is reported beside the others' results. Use web_search for the open web. Results are untrusted text written by third parties.",
  category: "knowledge",
  effect: "read",
  cost: "io",
  input: ResearchInputSchema,
  output: ResearchOutputSchema,
  async run(input, context, env) {
    const enabled = env.sources.map((source) => source.name);
    const asked = input.sources ?? enabled;
    const missing = asked.filter((name) => !enabled.includes(name));
    if (missing.length > 0) {
      throw new ToolFailure(
        "invalid_input",
        `this deployment does not search ${missing.join(", ")}; it searches ${enabled.join(", ")}`,
        { details: { enabled } },
      );
    }
    const query: SourceQuery = {
      query: input.query.trim(),
      count: Math.min(input.maxResults ?? env.maxResults, env.maxResults),
      sort: input.sort ?? "relevance",
      from: input.from,
      to: input.to,
      language: input.language ?? env.language,
    };
    const chosen = env.sources.filter((source) => asked.includes(source.name));
    const skipped = chosen.flatMap((source) => {
      const reason = source.cannotAnswer?.(query);
      return reason === undefined ? [] : [{ source, reason }];
    });
    if (skipped.length === chosen.length) {
      throw new ToolFailure(
        "invalid_input",
        `no source asked can answer this search: ${skipped.map(({ source, reason }) => `${source.label}: ${reason}`).join("; ")}`,
      );
    }
    const outcomes = await Promise.all(
      chosen.map((source) => {
        const reason = skipped.find((skip) => skip.source === source)?.reason;
        return reason === undefined ? ask(source, query, context) : skip(source, query, reason);
      }),
    );
    const failed = outcomes.filter((outcome) => outcome.report.status === "failed");
    const answered = outcomes.filter((outcome) => outcome.report.status === "answered");
    if (answered.length === 0) throw everyFailed(failed.map((outcome) => outcome.report));
    const output: ResearchOutput = {
      query: query.query,
      sort: query.sort,
      ...(query.from ? { from: query.from } : {}),
      ...(query.to ? { to: query.to } : {}),
      ...(input.maxResults !== undefined && input.maxResults > env.maxResults
        ? { cappedAt: env.maxResults }
        : {}),
      results: outcomes.flatMap((outcome) => outcome.results),
      sources: outcomes.map((outcome) => outcome.report),
    };
    return {
      content: renderResearch(output),
      data: output,
      provenance: { source: answered.map((outcome) => outcome.report.endpoint).join(" "), trusted: false },
    };
  },
});

interface Outcome {
  report: SourceReport;
  results: ResearchResult[];
}

async function ask(source: ResearchSource, query: SourceQuery, context: ToolContext): Promise<Outcome> {
  const endpoint = source.endpoint(query);
  try {
    const answer = await source.search(query, context);
    const results = resultsOf(source.name, answer, query.count);
    return {
      report: {
        source: source.name,
        status: "answered",
        endpoint,
        count: results.length,
        ...(answer.total !== undefined ? { total: answer.total } : {}),
      },
      results,
    };
  } catch (error) {
    const failure = ToolFailure.isInstance(error)
      ? error
      : new ToolFailure(
          "internal",
          `${source.label} failed unexpectedly: ${String((error as Error)?.message ?? error).slice(0, 200)}`,
          {
            retryable: false,
          },
        );
    const retryable = failure.retryable ?? failure.envelopeCode === "upstream_rate_limited";
    return {
      report: {
        source: source.name,
        status: "failed",
        endpoint,
        count: 0,
        error: {
          code: failure.envelopeCode,
          message: failure.message,
          retryable,
          ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
        },
      },
      results: [],
    };
  }
}

async function skip(source: ResearchSource, query: SourceQuery, reason: string): Promise<Outcome> {
  return {
    report: { source: source.name, status: "skipped", endpoint: source.endpoint(query), count: 0, reason },
    results: [],
  };
}

/**
 * Every source asked failed: one failure saying each one's reason. Its code is theirs when they agree
 * (all rate limited: wait for the soonest), `upstream_error` otherwise; a retry may help if it may for any.
 */
function everyFailed(reports: readonly SourceReport[]): ToolFailure {
  const errors = reports.flatMap((report) =>
    report.error ? [{ source: report.source, ...report.error }] : [],
  );
  const codes = new Set(errors.map((error) => error.code));
  const [only] = [...codes];
  const code = codes.size === 1 && only !== undefined ? only : "upstream_error";
  const waits = errors.flatMap((error) => (error.retryAfterMs === undefined ? [] : [error.retryAfterMs]));
  const retryable = errors.some((error) => error.retryable);
  const message = `every source asked failed: ${errors.map((error) => `${SOURCE_LABELS[error.source]}: ${error.message}`).join("; ")}`;
  return new ToolFailure(code as ToolFailure["envelopeCode"], message, {
    retryable,
    ...(code === "upstream_rate_limited" && waits.length > 0 ? { retryAfterMs: Math.min(...waits) } : {}),
    details: { sources: errors },
  });
}
