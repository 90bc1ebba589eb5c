/**
 * @module `linear_search_issues`: Linear's own issue search (`searchIssues`: full-text and vector search,
 * ranked by relevance), optionally within one team. Linear's schema says of searchIssues "Rate-limited to
 * 30 requests per minute", on top of the general budget, so one call asks at most SEARCH_PAGES pages, each
 * no larger than what is still wanted.
 */
import { z } from "zod";
import { linearTool } from "../linear-env.js";
import { limitField, lineField, teamIdField } from "../linear-inputs.js";
import { connectionOf, listNote, walkConnection } from "../linear-pages.js";
import { cleanSummary, ISSUE_SUMMARY_FIELDS, IssueSummary, summaryLine } from "./issue-shapes.js";

const SEARCH_QUERY = `query LinearSearchIssues($term: String!, $first: Int!, $after: String, $filter: IssueFilter, $includeComments: Boolean) {
  searchIssues(term: $term, first: $first, after: $after, filter: $filter, includeComments: $includeComments) {
    nodes { ${ISSUE_SUMMARY_FIELDS} }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** Requests one search makes at most: a fifteenth of searchIssues' budget for a minute. */
const SEARCH_PAGES = 2;

export const searchIssues = linearTool({
  name: "linear_search_issues",
  description:
    "Searches Linear issues by words (titles and descriptions, and comments if asked), most relevant first, optionally within one team (its id from linear_list_teams). Returns each issue's identifier (ENG-123), id, title, state, priority, assignee and link. Use linear_get_issue to read one issue's description and comments. Titles are workspace text, untrusted.",
  category: "project",
  effect: "read",
  cost: "io",
  input: z.strictObject({
    query: lineField(256, "the query").describe(
      "words to look for, as typed into Linear's search (at most 256 characters)",
    ),
    teamId: teamIdField.optional(),
    includeComments: z.boolean().optional().describe("also search the issues' comments (default false)"),
    limit: limitField,
  }),
  async run({ query, teamId, includeComments, limit }, context, env) {
    const linear = env.linear(context);
    const max = Math.min(limit ?? env.maxItems, env.maxItems);
    const term = query.trim();
    const listed = await walkConnection(
      (first, after) =>
        linear
          .request(
            `the search for "${term.slice(0, 60)}"`,
            SEARCH_QUERY,
            {
              term,
              first,
              ...(after === undefined ? {} : { after }),
              ...(teamId === undefined ? {} : { filter: { team: { id: { eq: teamId } } } }),
              ...(includeComments === undefined ? {} : { includeComments }),
            },
            z.object({ searchIssues: connectionOf(IssueSummary) }),
          )
          .then((answer) => answer.searchIssues),
      max,
      SEARCH_PAGES,
    );
    const issues = listed.items.map(cleanSummary);
    return {
      content: [
        `Linear search for "${term}": ${listNote(listed, "issues", max)}.`,
        ...issues.map(summaryLine),
      ].join("\n"),
      data: {
        issues,
        complete: listed.stoppedBy === undefined,
        ...(listed.stoppedBy ? { stoppedBy: listed.stoppedBy } : {}),
      },
      provenance: { source: linear.endpoint, trusted: false },
    };
  },
});
