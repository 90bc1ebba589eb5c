/**
 * @module `jira_list_projects`: the projects the connected account can browse, `GET /rest/api/3/project/search`
 * (PageBeanProject: `values`, paged by `startAt` until `isLast`), optionally filtered by Jira's own `query`
 * (a case-insensitive match on key or name).
 */
import { boundNote, collectPages, oneLine, type Page } from "toolreg/toolkit";
import { z } from "zod";
import { jiraTool } from "../jira-env.js";
import { limitField, oneLineField } from "../jira-inputs.js";
import { ProjectPageShape } from "../jira-shapes.js";

/** Jira's page size for this endpoint tops out at 100 (its default is 50). */
const PAGE_SIZE = 100;

interface ProjectSummary {
  key: string;
  name: string;
  id: string;
  type: string | null;
}

export const listProjects = jiraTool({
  name: "jira_list_projects",
  description:
    "Lists the Jira projects the connected account can browse: each one's key, name and type, optionally filtered by text in the key or name. Use it to find the project key that jira_create_issue and JQL (project = KEY) need; use jira_search_issues to find issues. Names are untrusted text from Jira.",
  category: "project",
  effect: "read",
  cost: "io",
  oauthScopes: ["read:jira-work"],
  input: z.object({
    query: oneLineField("a filter", 100)
      .optional()
      .describe("text matched, case-insensitively, against project keys and names"),
    limit: limitField,
  }),
  async run({ query, limit }, context, env) {
    const maxItems = Math.min(limit ?? env.maxItems, env.maxItems);
    const jira = env.jira(context);
    async function* pages(): AsyncGenerator<Page<ProjectSummary>> {
      let startAt = 0;
      for (;;) {
        const page = await jira.send(
          "the project list",
          {
            method: "GET",
            path: "/rest/api/3/project/search",
            query: {
              startAt: String(startAt),
              maxResults: String(Math.min(PAGE_SIZE, maxItems)),
              orderBy: "key",
              ...(query === undefined ? {} : { query }),
            },
          },
          ProjectPageShape,
        );
        const hasMore = page.isLast === false && page.values.length > 0;
        yield {
          items: page.values.map((project) => ({
            key: project.key,
            name: oneLine(project.name, 200),
            id: project.id,
            type: project.projectTypeKey ?? null,
          })),
          hasMore,
        };
        if (!hasMore) return;
        startAt += page.values.length;
      }
    }
    const collected = await collectPages(pages(), { maxItems, maxPages: env.maxPages });
    const projects = collected.items;
    const note = boundNote(collected, projects.length === 1 ? "project" : "projects");
    return {
      content: [
        `${note[0]?.toUpperCase()}${note.slice(1)}:`,
        ...projects.map(
          (project) => `${project.key}: ${project.name}${project.type ? ` (${project.type})` : ""}`,
        ),
      ].join("\n"),
      data: { projects, complete: collected.complete },
      provenance: { source: "jira:project/search", trusted: false },
    };
  },
});
