/**
 * Skills end to end, as a user reaches them: a folder with a SKILL.md added by `toolreg skills add` (twice:
 * version 2), then a real MCP client over stdio to `toolreg mcp` lists it as a prompt and gets its latest body,
 * fenced; another tenant's client sees none. `toolreg serve` lists it over /api/v1/skills and load_skill loads
 * it over the HTTP invoke route for a key of the tenant, and for a key of another tenant finds nothing.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { runToolreg } from "../cli/run-cli.js";
import { connectToolregMcp } from "../mcp/connect-toolreg-mcp.js";
import { dropSchema, freshSchema, POSTGRES_URL } from "../support/postgres-schema.js";
import { createKey, invokeAs, type ServeProcess, startServe } from "../support/serve-process.js";
import { postgresAvailable } from "../support/sql.js";

const postgres = await postgresAvailable("skills through toolreg serve");
const schemas: string[] = [];

let cwd: string;
let client: Client | undefined;
let served: ServeProcess | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  served?.child.kill("SIGKILL");
  served = undefined;
  rmSync(cwd, { recursive: true, force: true });
  for (const schema of schemas.splice(0)) await dropSchema(schema);
});

const DESCRIPTION = "Fill PDF forms. Use when a task hands you a form to complete.";

function skillFolder(
  root: string,
  name: string,
  body: string,
  frontmatter = `name: ${name}\ndescription: ${DESCRIPTION}`,
) {
  const folder = join(root, name);
  mkdirSync(join(folder, "reference"), { recursive: true });
  writeFileSync(join(folder, "SKILL.md"), `---\n${frontmatter}\nallowed-tools: shell_exec\n---\n${body}`);
  writeFileSync(join(folder, "reference", "fields.md"), "Field names are case-sensitive.\n");
  return folder;
}

const toolreg = (args: readonly string[], env: Record<string, string> = {}) =>
  runToolreg(["--db", join(cwd, "toolreg.db"), ...args], cwd, env);

// Each test runs the built CLI several times, on a machine other work shares.
describe("skills: toolreg skills add, then MCP prompts and load_skill", { timeout: 120_000 }, () => {
  it("adds a skill folder as versions and serves its latest body to an MCP client as a fenced prompt", async () => {
    cwd = mkdtempSync(join(tmpdir(), "toolreg-skills-"));
    skillFolder(cwd, "pdf-forms", "# Filling forms\n\nRead reference/fields.md first.\n");
    const first = await toolreg(["skills", "add", "pdf-forms"]);
    expect(first, first.stderr).toMatchObject({ code: 0 });
    expect(first.stdout).toContain("Added skill pdf-forms version 1 (1 files) for tenant local");
    skillFolder(cwd, "pdf-forms", "# Filling forms, v2\n\nCheck every field twice.\n");
    expect((await toolreg(["skills", "add", "pdf-forms"])).stdout).toContain("version 2");

    const listed = await toolreg(["skills", "list", "--json"]);
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: "pdf-forms", description: DESCRIPTION, version: 2, versions: 2, updatedAt: expect.any(Number) },
    ]);
    const shown = await toolreg(["skills", "show", "pdf-forms", "--version", "1", "--json"]);
    expect(JSON.parse(shown.stdout)).toMatchObject({
      version: 1,
      body: "# Filling forms\n\nRead reference/fields.md first.\n",
      files: { "reference/fields.md": "Field names are case-sensitive.\n" },
      metadata: { "allowed-tools": "shell_exec" },
      createdBy: "operator",
    });

    client = await connectToolregMcp(cwd);
    expect(client.getServerCapabilities()?.prompts).toEqual({});
    expect((await client.listPrompts()).prompts).toEqual([{ name: "pdf-forms", description: DESCRIPTION }]);
    const prompt = await client.getPrompt({ name: "pdf-forms" });
    expect(prompt.description).toBe(DESCRIPTION);
    expect(prompt.messages).toHaveLength(1);
    expect(prompt.messages[0]?.role).toBe("user");
    const text = (prompt.messages[0]!.content as { type: string; text: string }).text;
    expect(text).toMatch(
      /^<untrusted-content id="[0-9a-f]{16}" source="skill pdf-forms v2, written by operator/,
    );
    expect(text).toContain("Check every field twice.");
    expect(text).toContain("reference/fields.md");
    expect(text).not.toContain("Read reference/fields.md first.");
    // allowed-tools granted nothing: the tools served are the same as ever, and no prompt takes arguments.
    await expect(client.getPrompt({ name: "pdf-forms", arguments: { x: "1" } })).rejects.toThrow(
      /no arguments/,
    );
    await expect(client.getPrompt({ name: "no-such-skill" })).rejects.toBeInstanceOf(McpError);
    await expect(client.getPrompt({ name: "../../etc/passwd" })).rejects.toThrow(/no prompt/);
    await client.close();

    // Another tenant's operator, on the same state: no prompts.
    client = await connectToolregMcp(cwd, ["--tenant", "globex"]);
    expect((await client.listPrompts()).prompts).toEqual([]);
    await expect(client.getPrompt({ name: "pdf-forms" })).rejects.toThrow(/no prompt pdf-forms/);

    expect((await toolreg(["skills", "remove", "pdf-forms", "--version", "2"])).stdout).toContain(
      "Removed 1 version of skill pdf-forms",
    );
    expect(JSON.parse((await toolreg(["skills", "list", "--json"])).stdout)).toMatchObject([{ version: 1 }]);
  });

  it("refuses a folder that is not a skill, with what to change, and writes nothing", async () => {
    cwd = mkdtempSync(join(tmpdir(), "toolreg-skills-"));
    skillFolder(cwd, "wrong-folder", "body", "name: pdf-forms\ndescription: d");
    skillFolder(cwd, "no-description", "body", "name: no-description");
    skillFolder(
      cwd,
      "bomb",
      "body",
      'name: bomb\ndescription: d\na: &a ["x","x"]\nb: &b [*a,*a,*a]\nc: [*b,*b,*b]',
    );
    skillFolder(cwd, "Upper", "body", "name: Upper\ndescription: d");
    const linked = skillFolder(cwd, "linked", "body", "name: linked\ndescription: d");
    symlinkSync("/etc/hostname", join(linked, "reference", "host.md"));
    mkdirSync(join(cwd, "empty"));
    const deep = skillFolder(cwd, "deep", "body", "name: deep\ndescription: d");
    mkdirSync(join(deep, ...Array(30).fill("abcdefgh")), { recursive: true });
    for (const [folder, said] of [
      ["wrong-folder", /must equal the name of its folder, "wrong-folder"/],
      ["no-description", /needs a description/],
      ["bomb", /anchors or aliases/],
      ["Upper", /lower-case/],
      ["linked", /symbolic link/],
      ["empty", /holds a SKILL.md/],
      ["deep", /a path over 200 characters/],
    ] as const) {
      const refused = await toolreg(["skills", "add", folder]);
      expect(refused.code, folder).not.toBe(0);
      expect(refused.stderr, folder).toMatch(said);
    }
    expect((await toolreg(["skills", "list"])).stdout).toContain("No skills yet");
  });
});

const stores = [
  { name: "its SQLite file", env: (): Record<string, string> => ({}) },
  ...(postgres
    ? [
        {
          name: "PostgreSQL",
          env: (): Record<string, string> => {
            const schema = freshSchema();
            schemas.push(schema);
            return { TOOLREG_DB: `${POSTGRES_URL}?schema=${schema}` };
          },
        },
      ]
    : []),
];

describe.each(stores)("skills through toolreg serve on $name", { timeout: 120_000 }, ({ env: storeEnv }) => {
  it("lists the tenant's skills over the API and loads one with load_skill through toolreg serve", async () => {
    const env = storeEnv();
    cwd = mkdtempSync(join(tmpdir(), "toolreg-skills-serve-"));
    skillFolder(cwd, "pdf-forms", "# Filling forms\n");
    expect((await runToolreg(["--tenant", "acme", "skills", "add", "pdf-forms"], cwd, env)).code).toBe(0);
    served = await startServe(cwd, { env });
    const [ada, eve] = [await createKey(cwd, "acme", "ada", env), await createKey(cwd, "globex", "eve", env)];
    const list = async (key: string) =>
      (await (
        await fetch(`${served!.url}/api/v1/skills`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as { skills: unknown[] };
    expect(await list(ada)).toEqual({
      skills: [
        {
          name: "pdf-forms",
          description: DESCRIPTION,
          version: 1,
          versions: 1,
          updatedAt: expect.any(Number),
        },
      ],
    });
    expect(await list(eve)).toEqual({ skills: [] });
    const one = await fetch(`${served.url}/api/v1/skills/pdf-forms?version=1`, {
      headers: { authorization: `Bearer ${ada}` },
    });
    expect(await one.json()).toMatchObject({ name: "pdf-forms", version: 1, body: "# Filling forms\n" });
    const other = await fetch(`${served.url}/api/v1/skills/pdf-forms`, {
      headers: { authorization: `Bearer ${eve}` },
    });
    expect(other.status).toBe(404);

    // Over MCP on the server's /mcp, each key sees its own tenant's skills as prompts.
    const promptsOf = async (key: string) => {
      client = new Client({ name: "test", version: "0" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${served!.url}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${key}` } },
        }),
      );
      const { prompts } = await client.listPrompts();
      const got = prompts.length > 0 ? await client.getPrompt({ name: "pdf-forms" }) : undefined;
      await client.close();
      client = undefined;
      return { prompts, text: (got?.messages[0]?.content as { text?: string } | undefined)?.text };
    };
    const adas = await promptsOf(ada);
    expect(adas.prompts).toEqual([{ name: "pdf-forms", description: DESCRIPTION }]);
    expect(adas.text).toMatch(
      /^<untrusted-content id="[0-9a-f]{16}" source="skill pdf-forms v1, written by operator/,
    );
    expect(adas.text).toContain("# Filling forms");
    expect(await promptsOf(eve)).toEqual({ prompts: [], text: undefined });

    const loaded = await invokeAs<{ ok: boolean; content: string }>(served.url, ada, "run-1", "load_skill", {
      name: "pdf-forms",
    });
    expect(loaded.envelope).toMatchObject({ ok: true, content: expect.stringContaining("# Filling forms") });
    const missing = await invokeAs<{ ok: boolean }>(served.url, eve, "run-1", "load_skill", {
      name: "pdf-forms",
    });
    expect(missing.envelope).toMatchObject({ ok: false, error: { code: "precondition_failed" } });
    // Written by an agent, a skill waits for a human: the default policy asks.
    const written = await invokeAs<{ ok: boolean }>(served.url, ada, "run-1", "skill_manage", {
      action: "write",
      name: "agent-notes",
      description: "Notes an agent keeps.",
      body: "Be brief.",
    });
    expect(written.envelope).toMatchObject({ ok: false, error: { code: "approval_required" } });
    expect((await list(ada)).skills).toHaveLength(1);
  });
});
