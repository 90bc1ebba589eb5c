import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeOpenAIEmbeddings, TEST_API_KEY } from "../support/openai-embeddings-server.js";
import { DEFAULT_SERVED, runToolreg } from "./run-cli.js";

let cwd: string;
let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((_request, response) => {
    response.setHeader("content-type", "text/html");
    response.end(
      "<html><head><title>Local page</title></head><body><h1>Hello</h1><p>from the test server</p></body></html>",
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-cli-tools-"));
});

const call = (args: string[], name: string, input: unknown) =>
  runToolreg([...args, "call", name, "--input", JSON.stringify(input)], cwd);

describe("the standard library through the CLI", () => {
  it("refuses a loopback fetch by default, naming the rule, and fetches it when the operator allows loopback", async () => {
    const refused = await call([], "fetch_url", { url: "http://127.0.0.1/" });
    expect(JSON.parse(refused.stdout)).toMatchObject({
      ok: false,
      error: {
        code: "egress_refused",
        message: expect.stringContaining("loopback"),
        details: { rule: "loopback" },
      },
    });
    const fetched = JSON.parse(
      (await call(["--egress-allow", "loopback"], "fetch_url", { url: `${origin}/` })).stdout,
    );
    expect(fetched).toMatchObject({ ok: true, provenance: { source: `${origin}/`, trusted: false } });
    expect(fetched.content).toContain("<untrusted-content");
    expect(fetched.content).toContain("from the test server");
  });

  it("parks http_write for approval, like every external write", async () => {
    const parked = await call(["--egress-allow", "loopback"], "http_write", {
      url: `${origin}/x`,
      method: "POST",
      body: "{}",
    });
    expect(JSON.parse(parked.stdout)).toMatchObject({ ok: false, error: { code: "approval_required" } });
  });

  it("parses CSV and queries JSON", async () => {
    const csv = JSON.parse((await call([], "parse_csv", { csv: "a,b\n1,2\n" })).stdout);
    expect(csv).toMatchObject({
      ok: true,
      data: { columns: ["a", "b"], rows: [{ a: "1", b: "2" }], truncated: false },
    });
    const json = JSON.parse(
      (await call([], "query_json", { json: '{"a":[1,2,3]}', expression: "a[1]" })).stdout,
    );
    expect(json).toMatchObject({ ok: true, content: "2", data: { result: 2 } });
  });

  it("serves file tools only under the roots it is given, and refuses escapes", async () => {
    const readRoot = join(cwd, "docs");
    mkdirSync(readRoot);
    writeFileSync(join(readRoot, "note.txt"), "remember the milk\n");
    expect(JSON.parse((await call([], "fs_read", { path: "note.txt" })).stdout)).toMatchObject({
      ok: false,
      error: { code: "unknown_tool" },
    });
    const read = JSON.parse((await call(["--read-root", readRoot], "fs_read", { path: "note.txt" })).stdout);
    expect(read).toMatchObject({ ok: true });
    expect(read.content).toContain("remember the milk");
    const escaped = JSON.parse(
      (await call(["--read-root", readRoot], "fs_read", { path: "../outside.txt" })).stdout,
    );
    expect(escaped).toMatchObject({ ok: false, error: { code: "not_authorized" } });
    const overlapping = await call(["--read-root", readRoot, "--write-root", readRoot], "fs_read", {
      path: "note.txt",
    });
    expect(overlapping.code).toBe(2);
  });

  it("serves sql_query on a read-only SQLite database", async () => {
    const path = join(cwd, "shop.db");
    const db = new Database(path);
    db.exec(
      "CREATE TABLE items (name TEXT, price INTEGER); INSERT INTO items VALUES ('tea', 3), ('cake', 5);",
    );
    db.close();
    const rows = JSON.parse(
      (
        await call(["--sql-read", `sqlite:${path}`], "sql_query", {
          sql: "SELECT name FROM items ORDER BY price",
        })
      ).stdout,
    );
    expect(rows).toMatchObject({ ok: true });
    expect(JSON.stringify(rows.data)).toContain("tea");
    const write = JSON.parse(
      (await call(["--sql-read", `sqlite:${path}`], "sql_query", { sql: "DELETE FROM items" })).stdout,
    );
    expect(write).toMatchObject({ ok: false });
  });
});

describe("file_generate through the CLI", () => {
  it("writes into the artifacts folder it is given", async () => {
    const artifacts = join(cwd, "artifacts");
    const made = JSON.parse(
      (
        await call(["--artifacts-dir", artifacts], "file_generate", {
          format: "markdown",
          name: "notes",
          text: "# Hi",
        })
      ).stdout,
    );
    expect(made).toMatchObject({ ok: true, data: { name: "notes.md", mediaType: "text/markdown" } });
  });
});

describe("shell_exec through the CLI", () => {
  const bwrap = existsSync("/usr/bin/bwrap");
  if (!bwrap && process.env.CI !== "true") {
    it.skip("needs bubblewrap (/usr/bin/bwrap); apt-get install bubblewrap", () => {});
    return;
  }

  it("parks without --approve, and runs in the sandbox as a non-root user with it", async () => {
    const parked = await call([], "shell_exec", { command: "id -u" });
    expect(JSON.parse(parked.stdout)).toMatchObject({ ok: false, error: { code: "approval_required" } });
    expect(parked.stderr).toMatch(/parked as approval [0-9a-f-]{36}/);
    const ran = await runToolreg(["call", "shell_exec", "--approve", "--input", '{"command":"id -u"}'], cwd);
    const envelope = JSON.parse(ran.stdout);
    expect(envelope).toMatchObject({ ok: true, data: { exitCode: 0 } });
    expect(envelope.content).toMatch(/\b(?!0\b)\d+\b/);
    expect(envelope.content).not.toMatch(/^0$/m);
  });

  it("ends a pipeline at its timeout and leaves no process behind", async () => {
    const marker = `toolreg-cli-${Date.now()}`;
    const started = Date.now();
    const result = await runToolreg(
      [
        "call",
        "shell_exec",
        "--approve",
        "--input",
        JSON.stringify({ command: `sleep 999 | cat # ${marker}`, timeoutMs: 500 }),
      ],
      cwd,
    );
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: false, error: { code: "timeout" } });
    expect(Date.now() - started).toBeLessThan(5_000);
    const survivors = readdirSync("/proc")
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(marker);
        } catch {
          return false;
        }
      });
    expect(survivors).toEqual([]);
  });
});

describe("every built-in tool is reachable from the CLI", () => {
  it("serves all of them when every dependency is wired by flags", async () => {
    const readRoot = join(cwd, "read");
    const writeRoot = join(cwd, "write");
    mkdirSync(readRoot);
    mkdirSync(writeRoot);
    const path = join(cwd, "empty.db");
    new Database(path).close();
    const flags = [
      "--read-root",
      readRoot,
      "--write-root",
      writeRoot,
      "--artifacts-dir",
      join(cwd, "artifacts"),
    ];
    const sql = ["--sql-read", `sqlite:${path}`, "--sql-write", `sqlite:${path}`];
    const listed = await runToolreg([...flags, ...sql, "list", "--json"], cwd);
    const served = (JSON.parse(listed.stdout) as { name: string }[]).map((tool) => tool.name).sort();
    const catalogued = (await runToolreg(["check"], cwd)).stdout;
    // The demo toolkit is served by `toolreg serve` alone (test/server/serve-cli.test.ts); web_search, the 44
    // GitHub, the 4 Slack, the 16 wave-2 vendor tools, the 2 audio tools and the 32 work-app tools by a config
    // file naming their providers (examples/vendors, test/cli/reachability.test.ts).
    const demo = ["crm_read", "crm_write", "tasks_write", "alerts_write"];
    const byConfig = 1 + 44 + 4 + 16 + 2 + 32;
    expect(catalogued).toContain(
      `\ncatalogue ok: ${served.length + demo.length + byConfig + (existsSync("/usr/bin/bwrap") ? 0 : 1)} tools\n`,
    );
    expect(served).toEqual(
      [
        ...DEFAULT_SERVED,
        "fs_read",
        "fs_list",
        "fs_search",
        "fs_write",
        "file_generate",
        "sql_query",
        "sql_schema",
        "sql_write",
      ].sort(),
    );
  });
});

describe("the catalogue a model sees, through the CLI", () => {
  it("renders the served tools for a provider, byte-identical across runs", async () => {
    const first = await runToolreg(["render", "openai-chat"], cwd);
    const second = await runToolreg(["render", "openai-chat"], cwd);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(second.stdout);
    const tools = JSON.parse(first.stdout) as {
      type: string;
      function: { name: string; parameters: object };
    }[];
    expect(tools.find((tool) => tool.function.name === "calculate")).toMatchObject({
      type: "function",
      function: { parameters: { type: "object", properties: { expression: { type: "string" } } } },
    });
    expect(first.stdout).not.toContain("$schema");
    expect(await runToolreg(["render", "nope"], cwd)).toMatchObject({ code: 2 });
    expect(await runToolreg(["render", "mcp", "--budget", "-3"], cwd)).toMatchObject({ code: 2 });
  });

  it("answers a model's tool calls in its provider's shape, malformed ones included", async () => {
    const message = {
      role: "assistant",
      tool_calls: [
        {
          id: "call_1",
          type: "function",
          function: { name: "calculate", arguments: '{"expression":"6*7"}' },
        },
        { id: "call_2", type: "function", function: { name: "calculate", arguments: '{"expression":' } },
        {
          id: "call_3",
          type: "function",
          function: { name: "think", arguments: '{"thought":"x","dry_run":true}' },
        },
      ],
    };
    const answered = await runToolreg(["answer", "openai-chat", "--message", JSON.stringify(message)], cwd);
    expect(answered.code).toBe(1);
    const results = JSON.parse(answered.stdout) as { role: string; tool_call_id: string; content: string }[];
    expect(results.map((result) => [result.role, result.tool_call_id])).toEqual([
      ["tool", "call_1"],
      ["tool", "call_2"],
      ["tool", "call_3"],
    ]);
    expect(results[0]?.content).toBe("42");
    expect(results[1]?.content).toMatch(/^error invalid_input: .*not valid JSON/);
    expect(results[2]?.content).toContain('unknown argument "dry_run"');
    expect(await runToolreg(["answer", "openai-chat", "--message", "{"], cwd)).toMatchObject({ code: 2 });
  });

  it("finds by meaning with --embeddings, where the lexical search finds nothing", async () => {
    const query = "how much is 17 percent of 230";
    const lexical = await runToolreg(["find", query, "--json"], cwd);
    expect(JSON.parse(lexical.stdout)).toEqual([]);
    const hybrid = await runToolreg(
      ["--embeddings", "universal-sentence-encoder", "find", query, "--json"],
      cwd,
    );
    expect(JSON.parse(hybrid.stdout)[0]).toMatchObject({ name: "calculate" });
    const found = await runToolreg(
      [
        "--embeddings",
        "universal-sentence-encoder",
        "call",
        "find_tools",
        "--input",
        JSON.stringify({ query, limit: 1 }),
      ],
      cwd,
    );
    expect(JSON.parse(found.stdout)).toMatchObject({ ok: true, data: { tools: [{ name: "calculate" }] } });
  });

  it("finds through an OpenAI-compatible embeddings endpoint, and stops at once on a wrong key", async () => {
    const api = await startFakeOpenAIEmbeddings();
    try {
      const env = { TOOLREG_EMBEDDINGS_URL: api.baseUrl, TOOLREG_EMBEDDINGS_API_KEY: TEST_API_KEY };
      const query = "evaluate an arithmetic expression";
      const found = await runToolreg(["--embeddings", "openai", "find", query, "--json"], cwd, env);
      expect(found.code).toBe(0);
      expect(JSON.parse(found.stdout)[0]).toMatchObject({ name: "calculate" });
      // The probe, the catalogue, the query: each went to the endpoint with the key and the default model.
      expect(api.requests.length).toBeGreaterThanOrEqual(3);
      expect(api.requests.every((request) => request.authorization === `Bearer ${TEST_API_KEY}`)).toBe(true);
      expect(api.requests[0]?.body.model).toBe("text-embedding-3-small");
      // The probe and the catalogue are answered, the query refused: the words alone rank, and it says so.
      api.inject(
        { pass: true },
        { pass: true },
        { status: 400, body: { error: { message: "query refused" } } },
      );
      const refused = await runToolreg(["--embeddings", "openai", "find", query, "--json"], cwd, env);
      expect(refused.code).toBe(0);
      expect(JSON.parse(refused.stdout)[0]).toMatchObject({ name: "calculate" });
      expect(refused.stderr).toMatch(
        /^warning: embedding the query failed; find_tools searched lexically \(.*query refused/m,
      );
      const wrongKey = await runToolreg(["--embeddings", "openai", "find", query], cwd, {
        ...env,
        TOOLREG_EMBEDDINGS_API_KEY: "sk-wrong-key-0123456789",
      });
      expect(wrongKey.code).toBe(2);
      expect(wrongKey.stderr).toContain("--embeddings openai");
      // The API's own words, which show the key masked; toolreg adds nothing of it.
      expect(wrongKey.stderr).toContain("HTTP 401: Incorrect API key provided: sk-****************6789.");
      expect(wrongKey.stderr).not.toContain("sk-wrong-key-0123456789");
      // OPENAI_API_KEY is OpenAI's: it is not sent to any other endpoint.
      const otherEndpoint = await runToolreg(["--embeddings", "openai", "find", query], cwd, {
        TOOLREG_EMBEDDINGS_URL: api.baseUrl,
        OPENAI_API_KEY: TEST_API_KEY,
      });
      expect(otherEndpoint.code).toBe(2);
      expect(api.requests.at(-1)?.authorization).toBeUndefined();
    } finally {
      await api.close();
    }
  });

  it("renders compact entries, and within a token budget reports every dropped tool on stderr", async () => {
    const full = JSON.parse((await runToolreg(["render", "anthropic"], cwd)).stdout) as { name: string }[];
    const compact = await runToolreg(["render", "anthropic", "--compact"], cwd);
    expect((JSON.parse(compact.stdout) as { name: string }[]).map((entry) => entry.name)).toEqual(
      full.map((entry) => entry.name),
    );
    expect(compact.stdout.length).toBeLessThan(JSON.stringify(full, null, 2).length / 1.5);
    const bounded = await runToolreg(["render", "anthropic", "--compact", "--budget", "600"], cwd);
    const kept = (JSON.parse(bounded.stdout) as { name: string }[]).map((entry) => entry.name);
    expect(kept).toContain("find_tools");
    expect(kept.length).toBeLessThan(full.length);
    const [summary, eventLine] = bounded.stderr.trim().split("\n");
    expect(summary).toMatch(new RegExp(`^${kept.length} of ${full.length} tools, \\d+ of 600 tokens$`));
    const event = JSON.parse(eventLine as string);
    expect(event).toMatchObject({
      type: "catalog.truncated",
      findToolsOffered: true,
      executeToolOffered: true,
      kept: kept.length,
    });
    expect([...event.dropped, ...kept].sort()).toEqual(full.map((entry) => entry.name).sort());
    expect(event.budget.countedAs).toBe("json");
    // OpenAI's models read TypeScript declarations, lighter than the JSON: the same budget holds more.
    const openai = await runToolreg(["render", "openai-chat", "--compact", "--budget", "600"], cwd);
    expect((JSON.parse(openai.stdout) as unknown[]).length).toBeGreaterThan(kept.length);
    const tight = await runToolreg(["render", "openai-chat", "--compact", "--budget", "300"], cwd);
    expect(JSON.parse(tight.stderr.trim().split("\n")[1] as string).budget.countedAs).toBe("typescript");
  });

  it("finds the tool for a task", async () => {
    const hits = JSON.parse((await runToolreg(["find", "read a web page", "--json"], cwd)).stdout) as {
      name: string;
    }[];
    expect(hits[0]?.name).toBe("fetch_url");
    // The meta-tools are how a model searches, never what it finds.
    const meta = JSON.parse(
      (await runToolreg(["find", "find tools search output", "--json", "--limit", "20"], cwd)).stdout,
    ) as {
      name: string;
    }[];
    expect(meta.map((hit) => hit.name)).not.toEqual(expect.arrayContaining(["find_tools"]));
    expect(
      meta.some((hit) =>
        ["find_tools", "learn_tools", "execute_tool", "read_tool_output"].includes(hit.name),
      ),
    ).toBe(false);
  });
});
