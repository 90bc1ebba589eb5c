/**
 * @module The MCP conformance suite's client under test: toolreg's import. Given the URL of the suite's
 * server, it writes an `--mcp-config` importing it (OAuth settings from the scenario's context), starts the
 * built CLI's `toolreg serve` with sealed credentials on a fresh store, and then does what a user and an
 * agent would: opens the consent link toolreg prints, signed in to its console (following the
 * authorization server back to toolreg's callback), lists the imported tools and calls each over toolreg's
 * /mcp with the SDK's client, which accepts what it is asked (with the form's defaults): the approval of a
 * write (its key may approve its own calls by elicitation) and whatever the imported server asks during the
 * call. A call that answers `auth_required` has its new consent link followed, and is made again.
 *
 * Usage (as the suite runs it): node test/mcp/conformance/import-client.js <server-url>
 * Environment: MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT (JSON; a pre-registered client's id and secret).
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const cli = join(root, "dist/cli/main.js");
const serverUrl = process.argv[2];
if (!serverUrl) {
  console.error("usage: import-client.js <server-url>");
  process.exit(2);
}
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
const TENANT = "conformance";
const OPERATOR = "operator";
const AGENT = "agent";
/** What the suite's authorization servers accept as a client ID metadata document URL. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

const work = mkdtempSync(join(tmpdir(), "toolreg-import-client-"));
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const globals = ["--db", join(work, "toolreg.db"), "--tenant", TENANT];
writeFileSync(join(work, "credentials.key"), randomBytes(32).toString("hex"));
writeFileSync(
  join(work, "mcp.json"),
  JSON.stringify({
    servers: [
      {
        name: "conformance",
        url: serverUrl,
        // The suite's servers are on this machine.
        egressAllow: ["loopback"],
        oauth: {
          clientMetadataUrl: CLIENT_METADATA_URL,
          ...(context.client_id ? { clientId: context.client_id } : {}),
          ...(context.client_secret ? { clientSecret: "env:CONFORMANCE_CLIENT_SECRET" } : {}),
        },
      },
    ],
  }),
);

const serve = spawn(
  process.execPath,
  [
    cli,
    ...globals,
    "--principal",
    OPERATOR,
    "--mcp-config",
    join(work, "mcp.json"),
    "serve",
    "--port",
    String(port),
    "--public-url",
    origin,
    "--credentials-key-file",
    join(work, "credentials.key"),
  ],
  {
    env: { ...process.env, CONFORMANCE_CLIENT_SECRET: context.client_secret ?? "" },
    stdio: ["ignore", "pipe", "pipe"],
  },
);
let out = "";
let err = "";
serve.stdout.on("data", (chunk) => {
  out += chunk;
});
serve.stderr.on("data", (chunk) => {
  err += chunk;
});
let status = 0;
try {
  await main();
} catch (error) {
  console.error(`import-client: ${error instanceof Error ? error.message : error}`);
  status = 1;
} finally {
  if (serve.exitCode === null && serve.signalCode === null) {
    const exited = new Promise((done) => serve.once("exit", done));
    serve.kill("SIGTERM");
    await exited;
  }
  if (status !== 0) console.error(`toolreg serve said:\n${out}\n${err}`);
  rmSync(work, { recursive: true, force: true });
}
process.exit(status);

async function main() {
  await until(() => /^console: /m.test(out), "toolreg serve to listen");
  const login = /^console: (\S+\/login\?token=\S+)/m.exec(out)?.[1];
  if (!login) throw new Error("toolreg serve printed no console link");
  const agentKey = cliOut([
    ...globals,
    ...["--principal", AGENT, "keys", "create", "--label", "conformance", "--scopes", "approvals:elicit"],
  ]).trim();
  // The operator's browser, signed in to the console: consent links are theirs to open.
  const browser = new Map();
  await visit(login, browser);

  // The first connection to an OAuth server opened a consent: open its link as the user would.
  const followed = new Set();
  const consentLinks = () => [...err.matchAll(/should open (\S+) signed in/g)].map((match) => match[1]);
  for (const link of consentLinks()) await consent(link, browser, followed);

  const client = new Client(
    { name: "conformance-agent", version: "1" },
    { capabilities: { elicitation: { form: {} } } },
  );
  // The person at the agent accepts what they are asked, leaving each field at its default.
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: {} }));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${agentKey}` } },
    }),
  );
  const importedTools = async () =>
    (await client.listTools()).tools.filter((tool) => tool.name.startsWith("conformance_"));
  // A server listed without consent was listed before toolreg listened; after a consent, the import
  // connects and lists in the background, so its tools are waited for (a server may list none).
  let tools = await importedTools();
  for (let tries = 0; followed.size > 0 && tools.length === 0 && tries < 50; tries++) {
    await new Promise((done) => setTimeout(done, 100));
    tools = await importedTools();
  }
  console.log(`imported ${tools.length} tools`);
  for (const tool of tools) await call(client, tool, browser, followed);
  await client.close();
}

/** One call, as an agent makes it; a consent link in its answer is followed and the call made again, thrice at most. */
async function call(client, tool, browser, followed) {
  const input = sampleInput(tool.inputSchema ?? {});
  for (let attempt = 1; attempt <= 3; attempt++) {
    const result = await client.callTool({ name: tool.name, arguments: input });
    const text = (result.content ?? []).map((block) => (block.type === "text" ? block.text : "")).join("\n");
    const link = /(https?:\/\/\S+\/oauth\/start\/[A-Za-z0-9-]+)/.exec(text)?.[1];
    if (result.isError && link && !followed.has(link)) {
      await consent(link, browser, followed);
      continue;
    }
    console.log(`${tool.name}: ${result.isError ? "error" : "ok"}: ${text.slice(0, 200)}`);
    return;
  }
}

/** The user opens toolreg's consent link: toolreg → the authorization server → toolreg's callback. */
async function consent(link, browser, followed) {
  if (followed.has(link)) return;
  followed.add(link);
  const page = await visit(link, browser);
  if (page.status !== 200) throw new Error(`the consent ended on ${page.status}: ${page.text.slice(0, 300)}`);
}

/** A browser's GET, following redirects across origins with a cookie jar per origin. */
async function visit(start, jars) {
  let url = start;
  for (let hop = 0; hop < 10; hop++) {
    const here = new URL(url).origin;
    const jar = jars.get(here) ?? new Map();
    jars.set(here, jar);
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    const response = await fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} });
    for (const set of response.headers.getSetCookie()) {
      const [name, value = ""] = (set.split(";")[0] ?? "").split(/=(.*)/s);
      if (value === "" || /max-age=0/i.test(set)) jar.delete(name.trim());
      else jar.set(name.trim(), value);
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url).href;
      continue;
    }
    return { status: response.status, text: await response.text() };
  }
  throw new Error(`${start} redirected more than 10 times`);
}

/** Arguments a schema accepts: each required property (every property, when none is required) given a value. */
function sampleInput(schema) {
  const properties = schema.properties ?? {};
  const names = schema.required?.length ? schema.required : Object.keys(properties);
  return Object.fromEntries(names.map((name) => [name, sampleValue(properties[name] ?? {})]));
}

function sampleValue(schema) {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    case "object":
      return sampleInput(schema);
    case "array":
      return [];
    default:
      return "test";
  }
}

function cliOut(args) {
  const run = spawnSync(process.execPath, [cli, ...args], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`toolreg ${args.join(" ")} failed: ${run.stderr}`);
  return run.stdout;
}

/** Polls `check` every 100 ms until it gives a value, for 20 s at most. */
async function until(check, what) {
  for (let tries = 0; tries < 200; tries++) {
    const value = await check();
    if (value) return value;
    if (serve.exitCode !== null) throw new Error(`toolreg serve exited (${serve.exitCode}) before ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.on("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address();
      probe.close(() => done(free));
    });
  });
}
