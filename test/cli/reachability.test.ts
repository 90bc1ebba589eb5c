/**
 * Every tool toolreg ships is reachable: the example configurations and the wiring flags, together, make
 * the CLI (and so `toolreg serve`, which serves the same tools) serve each tool of every toolkit in the
 * list. A toolkit added to the list with no way to reach it fails here.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { firstPartyCatalogue } from "../../src/check/default-catalogue.js";
import { detectSandbox } from "../../src/sandbox/detect-sandbox.js";
import { runToolreg } from "./run-cli.js";

const VENDORS = fileURLToPath(new URL("../../examples/vendors/toolreg.config.json", import.meta.url));
/** The 32 tools of the work apps (Jira, Confluence, Linear, Notion, e-mail), each by name. */
const WORK_APPS = [
  ...["jira_search_issues", "jira_get_issue", "jira_list_projects", "jira_list_transitions"],
  ...["jira_create_issue", "jira_update_issue", "jira_transition_issue", "jira_comment"],
  ...["confluence_search", "confluence_get_page", "confluence_list_spaces"],
  ...["confluence_create_page", "confluence_update_page", "confluence_comment"],
  ...["linear_search_issues", "linear_get_issue", "linear_list_teams", "linear_list_states"],
  ...["linear_create_issue", "linear_update_issue", "linear_comment"],
  ...["notion_search", "notion_get_page", "notion_query_database", "notion_create_page"],
  ...["notion_update_page", "notion_append_blocks", "notion_comment"],
  ...["email_send", "email_compose_preview", "email_get_status", "email_list_sent"],
];
const cwd = mkdtempSync(join(tmpdir(), "toolreg-reach-"));
for (const folder of ["read", "write", "artifacts"]) mkdirSync(join(cwd, folder));
new Database(join(cwd, "data.db")).close();
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

async function listed(args: string[]): Promise<string[]> {
  const result = await runToolreg([...args, "list", "--json"], cwd);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as { name: string }[]).map((tool) => tool.name);
}

describe("reachability", () => {
  it("serves the 48 vendor tools, the 16 of wave 2, the 32 work-app tools, web_search and the audio tools from examples/vendors", async () => {
    const names = await listed(["--config", VENDORS]);
    expect(names.filter((name) => name.startsWith("github_"))).toHaveLength(44);
    expect(names.filter((name) => name.startsWith("slack_"))).toHaveLength(4);
    expect(names).toEqual(
      expect.arrayContaining([
        ...["web_scrape", "web_scrape_batch", "web_crawl", "research_search"],
        ...[
          "browser_navigate",
          "browser_read",
          "browser_screenshot",
          "browser_click",
          "browser_type",
          "browser_close",
        ],
        ...["stock_quote", "stock_fundamentals", "weather_forecast", "place_search"],
        ...["image_generate", "video_generate", "transcribe", "speech_generate", "web_search"],
        ...WORK_APPS,
      ]),
    );
    expect(WORK_APPS).toHaveLength(32);
  });

  it("serves every tool of every toolkit in the list from the examples and the wiring flags", async () => {
    const flags = [
      ["--read-root", "read", "--write-root", "write", "--artifacts-dir", "artifacts"],
      ["--sql-read", "sqlite:data.db", "--sql-write", "sqlite:data.db"],
    ].flat();
    const served = new Set([...(await listed(["--config", VENDORS])), ...(await listed(flags))]);
    // The demo toolkit is the one `serve` adds on its own, beside its state file; the CLI reaches it by config.
    const demo = join(cwd, "demo.db");
    const demoConfig = join(cwd, "demo.config.json");
    writeFileSync(
      demoConfig,
      JSON.stringify({ toolkits: [{ toolkit: "demo", config: { database: demo } }] }),
    );
    for (const name of await listed(["--config", demoConfig])) served.add(name);
    const declared = (await firstPartyCatalogue()).tools.map((tool) => tool.name);
    const unreachable = declared.filter((name) => !served.has(name));
    // shell_exec needs bubblewrap; CI installs it, and there it must be reached too.
    if (!detectSandbox() && process.env.CI !== "true") {
      console.warn("skipping shell_exec's reachability: no working bubblewrap here");
      expect(unreachable.filter((name) => name !== "shell_exec")).toEqual([]);
    } else {
      expect(unreachable).toEqual([]);
    }
  });
});
