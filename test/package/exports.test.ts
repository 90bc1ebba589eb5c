import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
};
const subpaths = Object.keys(manifest.exports).filter((subpath) => subpath !== "./package.json");

let project: string;
beforeAll(() => {
  // Install the packed tarball as a user would get it, beside the repository's own dependencies.
  project = mkdtempSync(join(tmpdir(), "toolreg-pack-"));
  // The global setup built dist for this run: packing it as it stands, without `prepare` building every
  // workspace again, keeps the hook to the packing itself.
  const tarball = execFileSync(
    "npm",
    ["pack", "--silent", "--ignore-scripts", "--pack-destination", project],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  )
    .trim()
    .split("\n")
    .at(-1) as string;
  const installed = join(project, "node_modules", "toolreg");
  mkdirSync(installed, { recursive: true });
  execFileSync("tar", ["-xzf", join(project, tarball), "-C", installed, "--strip-components=1"]);
  for (const entry of readdirSync(join(ROOT, "node_modules"))) {
    if (entry !== "toolreg" && !entry.startsWith("."))
      symlinkSync(join(ROOT, "node_modules", entry), join(project, "node_modules", entry));
  }
}, 120_000);
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe("the published package", () => {
  it("has an explicit exports map with the promised subpaths and no wildcard", () => {
    expect(subpaths).toEqual([
      ".",
      "./host",
      "./catalog",
      "./tools",
      "./toolkit",
      "./tools/sql/sqlite",
      "./tools/sql/postgres",
      "./egress",
      "./sandbox",
      "./stores",
      "./stores/memory",
      "./stores/sqlite",
      "./stores/postgres",
      "./test",
      "./adapters/ai-sdk",
      "./adapters/openai-agents",
      "./adapters/langchain",
      "./embeddings",
      "./mcp",
    ]);
    expect(Object.keys(manifest.exports).some((key) => key.includes("*"))).toBe(false);
  });

  it("loads every subpath from the packed tarball, with named exports only", () => {
    const script = `
      const loaded = {};
      for (const subpath of ${JSON.stringify(subpaths)}) {
        const module = await import(subpath === "." ? "toolreg" : "toolreg" + subpath.slice(1));
        loaded[subpath] = Object.keys(module).sort();
      }
      console.log(JSON.stringify(loaded));`;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: project,
      encoding: "utf8",
    });
    const loaded = JSON.parse(output) as Record<string, string[]>;
    expect(Object.keys(loaded)).toEqual(subpaths);
    for (const names of Object.values(loaded)) {
      expect(names.length).toBeGreaterThan(0);
      expect(names).not.toContain("default");
    }
    expect(loaded["."]).toEqual(
      expect.arrayContaining(["defineTool", "createSeam", "ToolRegistry", "createExecutionContext"]),
    );
    // The root is what a tool's author and its caller use; a store adapter's author finds the ports apart.
    expect(loaded["."]).toEqual(expect.arrayContaining(["approvalIdOf", "ToolFailure", "APPROVAL_STATUSES"]));
    expect(loaded["."]).not.toContain("evidenceOf");
    expect(loaded["./stores"]).toEqual([
      "APPROVAL_STATUSES",
      "ATTACHMENT_LIMITS",
      "CREDENTIAL_KINDS",
      "KNOWLEDGE_LIMITS",
      "MEMORY_LIMITS",
      "PARKED_CALL_STATUSES",
      "SCHEDULE_LIMITS",
      "SCHEDULE_STATUSES",
      "SKILL_LIMITS",
      "SOURCE_KINDS",
      "TODO_LIMITS",
      "TODO_RETENTION_MS",
      "TODO_STATUSES",
      "TOOLKIT_RECORD_LIMITS",
      "TOOLKIT_RECORD_RETENTION_MS",
      "attachmentCaps",
      "badAttachmentName",
      "checkedRecordData",
      "checkedSkillDraft",
      "checkedTodoItems",
      "evidenceOf",
      "newAttachment",
      "parseRecordCursor",
      "parseSkillMd",
      "recordCursor",
      "recordPage",
      "recordPageSize",
      "refusedUpfront",
      "skillFull",
      "skillNameProblem",
      "skillSource",
      "staleRevision",
    ]);
    expect(loaded["./host"]).toEqual([
      "OAuthClients",
      "chainCredentialResolvers",
      "createConsentBinding",
      "createStoreCredentialResolver",
      "createToolreg",
    ]);
    expect(loaded["./toolkit"]).toEqual(
      expect.arrayContaining([
        "defineToolkit",
        "toolFor",
        "createToolkitHost",
        "egressFetch",
        "collectPages",
      ]),
    );
    expect(loaded["./stores/sqlite"]).toContain("openSqliteStores");
    expect(loaded["./stores/postgres"]).toEqual(
      expect.arrayContaining(["openPostgresStores", "openPostgresDeployment", "createPostgresAuthStore"]),
    );
    expect(loaded["./egress"]).toContain("createEgressClient");
    expect(loaded["./catalog"]).toEqual(
      expect.arrayContaining([
        "renderCatalog",
        "renderOpenAIChatTools",
        "renderMcpTools",
        "ToolSearchIndex",
        "HybridToolSearch",
        "DEFAULT_HYBRID_WEIGHTS",
      ]),
    );
    expect(loaded["./sandbox"]).toEqual(expect.arrayContaining(["createBubblewrapSandbox", "detectSandbox"]));
    expect(loaded["./tools/sql/sqlite"]).toEqual(
      expect.arrayContaining(["openSqliteReader", "openSqliteWriter"]),
    );
    expect(loaded["./tools/sql/postgres"]).toEqual(
      expect.arrayContaining(["openPostgresReader", "openPostgresWriter"]),
    );
    expect(loaded["./tools"]).toEqual(
      expect.arrayContaining(["webTools", "dataTools", "fileTools", "sqlTools"]),
    );
    expect(loaded["./catalog"]).toEqual(
      expect.arrayContaining([
        "fitCatalog",
        "fitSkillCatalog",
        "loadO200kCounter",
        "runToolCalls",
        "parseToolCalls",
        "metaTools",
      ]),
    );
    // The meta-tools belong to the catalogue they search, not to the toolkits.
    expect(loaded["./tools"]).not.toContain("metaTools");
    expect(loaded["./adapters/ai-sdk"]).toEqual(["aiSdkTools"]);
    expect(loaded["./adapters/openai-agents"]).toEqual(["openAIAgentsTools"]);
    expect(loaded["./adapters/langchain"]).toEqual([
      "langChainTools",
      "resumeApproved",
      "toolregApprovalMiddleware",
    ]);
    expect(loaded["./embeddings"]).toEqual([
      "EmbeddingsRequestError",
      "EmbeddingsResponseError",
      "loadUniversalSentenceEncoder",
      "openAICompatibleEmbeddings",
    ]);
    expect(loaded["./mcp"]).toEqual(
      expect.arrayContaining([
        "createMcpServer",
        "defineMcpResources",
        "serveStdio",
        "mcpServer",
        "syncRegistry",
        "createMemoryPinStore",
      ]),
    );
    expect(loaded["./test"]).toEqual(
      expect.arrayContaining(["createFakeClock", "createScriptedTool", "createMemoryStores"]),
    );
  });

  it("ships the CLI as a runnable bin", () => {
    const output = execFileSync(
      process.execPath,
      [join(project, "node_modules/toolreg/dist/cli/main.js"), "list", "--json"],
      {
        cwd: project,
        encoding: "utf8",
      },
    );
    expect((JSON.parse(output) as { name: string }[]).map((tool) => tool.name)).toContain("calculate");
  });

  it("ships the web console the server serves", () => {
    const shipped = readdirSync(join(project, "node_modules/toolreg/console"));
    expect(shipped).toEqual(expect.arrayContaining(["index.html", "app.js", "style.css"]));
  });

  it("names each type the root exports, re-exporting no module's types wholesale", () => {
    const declarations = readFileSync(join(project, "node_modules/toolreg/dist/index.d.ts"), "utf8");
    expect(declarations).toContain("ToolContext");
    expect(declarations).not.toMatch(/export (type )?\*/);
  });

  it("keeps the root free of database drivers, HTTP and CLI frameworks", () => {
    const forbidden = ["better-sqlite3", "commander", "pino", "hono", "@hono/node-server", "gpt-tokenizer"];
    const seen = new Set<string>();
    const imported = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, specifier] of readFileSync(file, "utf8").matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
        if (!specifier) continue;
        if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier));
        else imported.add(specifier);
      }
    };
    visit(join(ROOT, "dist/index.js"));
    expect(
      [...imported].filter((name) => forbidden.some((bad) => name === bad || name.startsWith(`${bad}/`))),
    ).toEqual([]);
    const allowed = ["@opentelemetry/api", "ajv", "ajv/dist/2020.js", "semver", "zod"];
    expect([...imported].filter((name) => !name.startsWith("node:") && !allowed.includes(name))).toEqual([]);
  });
});
