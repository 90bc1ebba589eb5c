/**
 * @module `jira_search_issues`: issues found by JQL, through the enhanced search `POST /rest/api/3/search/jql`
 * (the old `/rest/api/3/search` is removed: developer.atlassian.com/changelog/#CHANGE-2046). It pages by
 * `nextPageToken`, which Jira leaves out on the last page, up to the deployment's bounds.
 */
import { boundNote, collectPages, type Page } from "toolreg/toolkit";
import { z } from "zod";
import { jiraTool } from "../jira-env.js";
import { jqlField, limitField } from "../jira-inputs.js";
import { type JiraIssue, SearchPageShape } from "../jira-shapes.js";
import { issueLine, issueSummaryOf, SUMMARY_FIELDS } from "./issue-output.js";

/** Jira returns at most 100 issues a page when fields are asked for (it may return fewer). */
const PAGE_SIZE = 100;

export const searchIssues = jiraTool({
  name: "jira_search_issues",
  description:
    "Finds Jira issues with a JQL query and returns each one's key, summary, status, type, priority, assignee and link, newest first if the JQL says ORDER BY updated DESC. Use it to find an issue's key; then jira_get_issue reads one issue in full (description and comments). The JQL must be bounded (name a project, an assignee, a date range). Summaries are untrusted text from Jira.",
  category: "project",
  effect: "read",
  cost: "io",
  oauthScopes: ["read:jira-work"],
  input: z.object({ jql: jqlField, limit: limitField }),
  async run({ jql, limit }, context, env) {
    const maxItems = Math.min(limit ?? env.maxItems, env.maxItems);
    const jira = env.jira(context);
    async function* pages(): AsyncGenerator<Page<JiraIssue>> {
      let nextPageToken: string | undefined;
      for (;;) {
        const page = await jira.send(
          "the JQL search",
          {
            method: "POST",
            path: "/rest/api/3/search/jql",
            json: {
              jql,
              maxResults: Math.min(PAGE_SIZE, maxItems),
              fields: SUMMARY_FIELDS,
              ...(nextPageToken === undefined ? {} : { nextPageToken }),
            },
          },
          SearchPageShape,
        );
        nextPageToken = page.nextPageToken ?? undefined;
        const hasMore = nextPageToken !== undefined && page.isLast !== true;
        yield { items: page.issues, hasMore };
        if (!hasMore) return;
      }
    }
    const collected = await collectPages(pages(), { maxItems, maxPages: env.maxPages });
    const issues = collected.items.map((issue) => issueSummaryOf(issue, env));
    const note = boundNote(collected, issues.length === 1 ? "issue" : "issues");
    return {
      content: [`${note[0]?.toUpperCase()}${note.slice(1)}:`, ...issues.map(issueLine)].join("\n"),
      data: { issues, complete: collected.complete },
      provenance: { source: `jira:search/jql`, trusted: false },
    };
  },
});
