import { describe, expect, it } from "vitest";
import { z } from "zod";
import { firstPartyCatalogue } from "../check/default-catalogue.js";
import { defineTool } from "../declaration/define-tool.js";
import type { Effect } from "../declaration/effect.js";
import type { ToolHints } from "../declaration/hints.js";
import { annotationsFor, type McpToolAnnotations } from "./mcp.js";

/** The hints a client gets, as one line: a changed hint is a visible diff in the table below. */
function line({ readOnlyHint, destructiveHint, idempotentHint, openWorldHint }: McpToolAnnotations): string {
  const word = (hint: boolean, name: string) => (hint ? name : "-");
  return [
    word(readOnlyHint, "read-only"),
    word(destructiveHint, "destructive"),
    word(idempotentHint, "idempotent"),
    word(openWorldHint, "open-world"),
  ].join(" ");
}

// Every shipped tool (built-in, vendor toolkits, meta-tools). Open world: it reaches the web, a vendor's
// API or anything the catalogue can reach; the operator's own files, database and sandbox are closed.
const SHIPPED: Record<string, string> = {
  now: "read-only - idempotent -",
  calculate: "read-only - idempotent -",
  think: "read-only - idempotent -",
  sleep: "read-only - idempotent -",
  fetch_url: "read-only - idempotent open-world",
  fetch_json: "read-only - idempotent open-world",
  http_request: "read-only - idempotent open-world",
  http_write: "- destructive - open-world",
  web_search: "read-only - idempotent open-world",
  parse_csv: "read-only - idempotent -",
  query_json: "read-only - idempotent -",
  fs_read: "read-only - idempotent -",
  fs_list: "read-only - idempotent -",
  fs_search: "read-only - idempotent -",
  fs_write: "- destructive - -",
  file_generate: "- - - -",
  sql_query: "read-only - idempotent -",
  sql_schema: "read-only - idempotent -",
  sql_write: "- destructive - -",
  shell_exec: "- destructive - -",
  crm_read: "read-only - idempotent -",
  crm_write: "- - - -",
  tasks_write: "- - - -",
  alerts_write: "- - - open-world",
  todo_write: "- - - -",
  todo_read: "read-only - idempotent -",
  memory_save: "- - - -",
  memory_search: "read-only - idempotent -",
  memory_forget: "- destructive - -",
  schedule_create: "- - - -",
  schedule_list: "read-only - idempotent -",
  schedule_cancel: "- - - -",
  list_attachments: "read-only - idempotent -",
  read_attachment: "read-only - idempotent -",
  ask_questions: "read-only - idempotent -",
  request_approval: "read-only - idempotent -",
  read_document: "read-only - idempotent -",
  search_knowledge: "read-only - idempotent -",
  read_knowledge: "read-only - idempotent -",
  load_skill: "read-only - idempotent -",
  skill_manage: "- destructive - -",
  github_get_issue: "read-only - idempotent open-world",
  github_list_issues: "read-only - idempotent open-world",
  github_search_issues: "read-only - idempotent open-world",
  github_create_issue: "- - - open-world",
  github_update_issue: "- - - open-world",
  github_close_issue: "- - - open-world",
  github_reopen_issue: "- - - open-world",
  github_comment: "- - - open-world",
  github_list_labels: "read-only - idempotent open-world",
  github_add_labels: "- - - open-world",
  github_remove_label: "- - - open-world",
  github_list_milestones: "read-only - idempotent open-world",
  github_list_pull_requests: "read-only - idempotent open-world",
  github_get_pull_request: "read-only - idempotent open-world",
  github_search_pull_requests: "read-only - idempotent open-world",
  github_create_pull_request: "- - - open-world",
  github_update_pull_request: "- - - open-world",
  github_review_pull_request: "- - - open-world",
  github_close_pull_request: "- - - open-world",
  github_merge_pull_request: "- destructive - open-world",
  github_search_code: "read-only - idempotent open-world",
  github_get_file: "read-only - idempotent open-world",
  github_list_directory: "read-only - idempotent open-world",
  github_write_file: "- - - open-world",
  github_delete_file: "- destructive - open-world",
  github_list_commits: "read-only - idempotent open-world",
  github_get_commit: "read-only - idempotent open-world",
  github_list_branches: "read-only - idempotent open-world",
  github_list_tags: "read-only - idempotent open-world",
  github_create_branch: "- - - open-world",
  github_list_projects: "read-only - idempotent open-world",
  github_get_project: "read-only - idempotent open-world",
  github_create_project: "- - - open-world",
  github_add_project_item: "- - - open-world",
  github_set_project_field: "- - - open-world",
  github_remove_project_item: "- destructive - open-world",
  github_list_releases: "read-only - idempotent open-world",
  github_get_release: "read-only - idempotent open-world",
  github_create_release: "- - - open-world",
  github_list_workflow_runs: "read-only - idempotent open-world",
  github_get_workflow_run: "read-only - idempotent open-world",
  github_get_workflow_run_logs: "read-only - idempotent open-world",
  github_rerun_workflow: "- - - open-world",
  github_dispatch_workflow: "- - - open-world",
  slack_list_channels: "read-only - idempotent open-world",
  slack_read_history: "read-only - idempotent open-world",
  slack_post_message: "- - - open-world",
  slack_reply_in_thread: "- - - open-world",
  find_tools: "read-only - idempotent -",
  learn_tools: "read-only - idempotent -",
  execute_tool: "- destructive - open-world",
  read_tool_output: "read-only - idempotent -",
  browser_click: "- - - open-world",
  browser_close: "- - - open-world",
  browser_navigate: "read-only - idempotent open-world",
  browser_read: "read-only - idempotent open-world",
  browser_screenshot: "read-only - idempotent open-world",
  browser_type: "- - - open-world",
  image_generate: "- - - open-world",
  place_search: "read-only - idempotent open-world",
  research_search: "read-only - idempotent open-world",
  speech_generate: "- - - open-world",
  stock_fundamentals: "read-only - idempotent open-world",
  stock_quote: "read-only - idempotent open-world",
  transcribe: "read-only - idempotent open-world",
  video_generate: "- - - open-world",
  weather_forecast: "read-only - idempotent open-world",
  web_crawl: "read-only - idempotent open-world",
  web_scrape: "read-only - idempotent open-world",
  web_scrape_batch: "read-only - idempotent open-world",
  jira_search_issues: "read-only - idempotent open-world",
  jira_get_issue: "read-only - idempotent open-world",
  jira_list_projects: "read-only - idempotent open-world",
  jira_list_transitions: "read-only - idempotent open-world",
  jira_create_issue: "- - - open-world",
  jira_update_issue: "- - - open-world",
  jira_transition_issue: "- - - open-world",
  jira_comment: "- - - open-world",
  confluence_search: "read-only - idempotent open-world",
  confluence_get_page: "read-only - idempotent open-world",
  confluence_list_spaces: "read-only - idempotent open-world",
  confluence_create_page: "- - - open-world",
  confluence_update_page: "- - - open-world",
  confluence_comment: "- - - open-world",
  linear_search_issues: "read-only - idempotent open-world",
  linear_get_issue: "read-only - idempotent open-world",
  linear_list_teams: "read-only - idempotent open-world",
  linear_list_states: "read-only - idempotent open-world",
  linear_create_issue: "- - - open-world",
  linear_update_issue: "- - - open-world",
  linear_comment: "- - - open-world",
  notion_search: "read-only - idempotent open-world",
  notion_get_page: "read-only - idempotent open-world",
  notion_query_database: "read-only - idempotent open-world",
  notion_create_page: "- - - open-world",
  notion_update_page: "- - - open-world",
  notion_append_blocks: "- - - open-world",
  notion_comment: "- - - open-world",
  email_compose_preview: "read-only - idempotent open-world",
  email_send: "- - - open-world",
  email_get_status: "read-only - idempotent open-world",
  email_list_sent: "read-only - idempotent open-world",
};

function tool(effect: Effect, hints?: ToolHints) {
  return defineTool({
    name: "probe",
    description: "a probe",
    category: "general",
    effect,
    ...(hints ? { hints } : {}),
    input: z.object({}),
    run: () => "ok",
  });
}

describe("MCP behaviour hints", () => {
  it("holds every shipped tool's four hints, and no tool is missing from the table or extra in it", async () => {
    const shipped = Object.fromEntries(
      (await firstPartyCatalogue()).tools.map((served) => [served.name, line(annotationsFor(served))]),
    );
    expect(shipped).toEqual(SHIPPED);
  });

  it("derives from the effect when nothing is declared: only an external write reaches outside", () => {
    expect(line(annotationsFor(tool("read")))).toBe("read-only - idempotent -");
    expect(line(annotationsFor(tool("internal-write")))).toBe("- - - -");
    expect(line(annotationsFor(tool("external-write")))).toBe("- - - open-world");
    expect(line(annotationsFor(tool("destructive")))).toBe("- destructive - -");
  });

  it("lets a declaration add caution: a read that reaches the web, a read its source says may destroy", () => {
    expect(line(annotationsFor(tool("read", { openWorld: true })))).toBe("read-only - idempotent open-world");
    expect(line(annotationsFor(tool("read", { idempotent: false })))).toBe("read-only - - -");
    // A tool that may destroy is neither read-only nor taken as safe to repeat, whatever its effect.
    expect(line(annotationsFor(tool("read", { destructive: true })))).toBe("- destructive - -");
    expect(line(annotationsFor(tool("read", { readOnly: false })))).toBe("- - - -");
  });

  it("gives a delegating tool the most cautious hints, whatever its own effect", () => {
    const delegating = defineTool({
      name: "delegate",
      description: "runs another tool",
      category: "meta",
      effect: "read",
      input: z.object({ name: z.string() }),
      delegatesTo: ({ name }) => ({ name, input: {} }),
      run: () => "ok",
    });
    expect(annotationsFor(delegating)).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
  });
});
