/** @module The `toolreg` command line: commander wiring over the command functions. */
import { resolve } from "node:path";
import { Command, CommanderError, Option } from "commander";
import { pino } from "pino";
import { metaTools } from "../catalog/meta/index.js";
import type { EmbeddingProvider } from "../catalog/search/embedding-provider.js";
import type { Catalogue } from "../check/catalogue.js";
import { firstPartyCatalogue } from "../check/default-catalogue.js";
import { loadCatalogue } from "../check/load-catalogue.js";
import type { McpImport } from "../mcp/import/mcp-server.js";
import type { McpResourceSource } from "../mcp/serve/resources/resource-source.js";
import type { PinStore } from "../ports/pin-store.js";
import { APPROVAL_STATUSES } from "../ports/stores.js";
import { type AnyTool, ToolRegistry } from "../registry/registry.js";
import type { Seam } from "../seam/seam.js";
import { tellPinAccepted } from "../server/instance-events.js";
import { seamScheduleTargets } from "../tools/schedules/index.js";
import { loadCatalogueResources } from "./catalogue-resources.js";
import { EMBEDDING_MODELS, loadCliEmbeddings } from "./cli-embeddings.js";
import { type CliIo, UsageError } from "./cli-io.js";
import { cliKnowledgeEmbedder } from "./cli-knowledge.js";
import { importMcpServers } from "./cli-mcp-imports.js";
import { type CliState, type GlobalOptions, openCliState } from "./cli-state.js";
import { type LazyCliStores, lazyCliStores, scheduleOptionsFrom, stateLocation } from "./cli-stores.js";
import { type MetaHost, type ServedTools, serveTools } from "./cli-tools.js";
import { answerCommand } from "./commands/answer.js";
import { answerApproval, decideApproval, listApprovals } from "./commands/approvals.js";
import { addAttachmentCommands } from "./commands/attachments.js";
import { auditCommand } from "./commands/audit.js";
import { callTool } from "./commands/call.js";
import { checkCommand } from "./commands/check.js";
import { addCredentialCommands } from "./commands/credentials.js";
import { describeTool } from "./commands/describe.js";
import { docsCommand } from "./commands/docs.js";
import { findCommand } from "./commands/find.js";
import { addKbCommands } from "./commands/kb.js";
import { listTools } from "./commands/list.js";
import { acceptPin, listPins } from "./commands/mcp-pins.js";
import { renderCommand } from "./commands/render.js";
import { cancelSchedule, listSchedules } from "./commands/schedules.js";
import { addSkillCommands } from "./commands/skills.js";
import { CONFIG_FILE, loadSettings, type Settings } from "./config-file.js";
import { tellInstances } from "./nats-bus.js";
import { addServerCommands } from "./server-commands.js";
import { wiringFlags } from "./wiring-flags.js";

/** Runs the CLI on `argv` (without node and script); resolves to the exit code. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let exitCode = 0;
  // The command's stores: opened by the first part that needs them, closed once the command is done.
  let program: Command | undefined;
  const stores = lazyCliStores(
    () => {
      const options = program?.opts<GlobalOptions>() ?? {};
      return stateLocation(options, io, () => loadSettings(options as GlobalOptions, io).store);
    },
    { schedules: () => scheduleOptionsFrom(io.env) },
  );
  program = buildProgram(io, stores, (code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync([...argv], { from: "user" });
    await stores.close();
    return exitCode;
  } catch (error) {
    await stores.close().catch(() => {});
    if (error instanceof CommanderError) {
      // Help and version exit 0; every other commander error is a usage error it has already printed.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof UsageError) {
      io.stderr(`error: ${error.message}\n`);
      return 2;
    }
    io.stderr(`error: ${(error as Error).message ?? String(error)}\n`);
    return 1;
  }
}

function buildProgram(io: CliIo, stores: LazyCliStores, setExitCode: (code: number) => void): Command {
  const program = new Command("toolreg")
    .description(
      "The governed catalogue of tools an AI agent may call, and the one seam every call goes through.",
    )
    .option(
      "--db <path-or-url>",
      "the state: a SQLite file (default .toolreg/toolreg.db, or $TOOLREG_DB), or a postgres:// URL that many instances share",
    )
    .option(
      "--nats <url>",
      "the bus the instances share (nats://127.0.0.1:4222): serve tells the others of approvals and answers tool.query; keys revoke tells every instance",
    )
    .option("--registry <path>", "an ES module exporting `catalogue` to serve instead of the built-in one")
    .option(
      "--mcp-config <file>",
      "also serve the tools of the MCP servers this JSON file lists (see docs/mcp-import.md)",
    )
    .option(
      "--config <file>",
      `the settings file: rate limits, failed-authentication throttling, audit failures, drain (default ./${CONFIG_FILE} when it exists)`,
    )
    .option(
      "--drain-ms <ms>",
      "serve and mcp: how long a stop waits for running calls before recording those that change data as interrupted (default 30000)",
    )
    .addOption(
      new Option(
        "--on-audit-failure <mode>",
        "while audit events cannot be written: refuse calls that change data (default), or alert and run them",
      ).choices(["refuse", "alert"]),
    )
    .option(
      "--rate-limit <rule>",
      "a ceiling on tool calls, e.g. principal=100/min, tenant:acme=5000/hour or tool:crm_write=10/min,burst=3; repeatable, added to the config file's",
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option("--artifacts-dir <dir>", "serve file_generate, keeping the files it makes in this directory")
    .option("--read-root <dir>", "serve fs_read, fs_list and fs_search confined to this directory")
    .option("--write-root <dir>", "serve fs_write confined to this directory (not inside the read root)")
    .option(
      "--sql-read <url>",
      "serve sql_query and sql_schema on this database, read-only (sqlite:PATH or postgres://…)",
    )
    .option("--sql-write <url>", "serve sql_write on this database (sqlite:PATH or postgres://…)")
    .option(
      "--egress-allow <class-or-cidr>",
      "let web tools also reach this address class (e.g. loopback) or CIDR; repeatable",
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .addOption(
      new Option(
        "--embeddings <model>",
        "make find_tools and find hybrid with this embedding model: universal-sentence-encoder runs in the process, openai is an OpenAI-compatible endpoint ($TOOLREG_EMBEDDINGS_URL, _MODEL, _API_KEY)",
      ).choices(EMBEDDING_MODELS),
    )
    .option("--tenant <id>", "tenant the commands act for", "local")
    .option("--principal <id>", "who is acting", "operator")
    .addOption(
      new Option("--mode <mode>", "the assistant mode of calls")
        .choices(["active", "gated", "disabled"])
        .default("active"),
    )
    .addOption(
      new Option("--log-level <level>", "log level on stderr")
        .choices(["debug", "info", "warn", "error", "silent"])
        .default("warn"),
    )
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  const globals = (): GlobalOptions => program.opts<GlobalOptions>();
  const catalogue = async (): Promise<Catalogue> => {
    const path = globals().registry;
    if (!path) return firstPartyCatalogue();
    try {
      return await loadCatalogue(resolve(io.cwd, path));
    } catch (error) {
      throw new UsageError(`--registry ${path}: ${(error as Error).message.split("\n")[0]}`);
    }
  };
  /** The MCP resources the --registry module serves of its own. */
  const catalogueResources = async (): Promise<McpResourceSource[]> => {
    const path = globals().registry as string;
    try {
      return await loadCatalogueResources(resolve(io.cwd, path));
    } catch (error) {
      throw new UsageError(`--registry ${path}: ${(error as Error).message.split("\n")[0]}`);
    }
  };
  // The meta-tools call back into the seam the command opens, which is built over them: a late link.
  let openSeam: Seam | undefined;
  let embeddings: Promise<EmbeddingProvider | undefined> | undefined;
  /** The embedding model --embeddings names, loaded once per command and only when asked for. */
  const loadEmbeddings = (): Promise<EmbeddingProvider | undefined> => {
    const model = globals().embeddings;
    embeddings ??= model ? loadCliEmbeddings(model, io.env) : Promise.resolve(undefined);
    return embeddings;
  };
  /** The knowledge base's embedder: the --embeddings model, else the local one. */
  const knowledgeEmbedder = async () =>
    cliKnowledgeEmbedder(globals().embeddings, await loadEmbeddings(), io.env);
  const meta = async (): Promise<MetaHost> => {
    const loaded = await loadEmbeddings();
    return {
      seam: () => {
        if (!openSeam) throw new Error("no seam is open for this command");
        return openSeam;
      },
      outputs: stores.outputs(),
      ...(loaded ? { embeddings: loaded } : {}),
    };
  };
  /** The served tools plus those of the MCP servers --mcp-config lists, which close with them. */
  const withImports = async (base: ServedTools, publicUrl?: string): Promise<ServedTools> => {
    const config = globals().mcpConfig;
    if (!config) return base;
    try {
      const { tenant, principal } = globals();
      // Imported images are kept where the generate toolkit keeps its files, and served from there.
      const kept = { ...(await stores.open()), artifacts: base.artifacts };
      const imported = await importMcpServers(config, kept, io, { tenant, principal, publicUrl });
      return {
        tools: [...base.tools, ...imported.tools],
        imports: imported.imports,
        ...(base.resources ? { resources: base.resources } : {}),
        ...(base.artifacts ? { artifacts: base.artifacts } : {}),
        close: async () => {
          await imported.close();
          await base.close();
        },
      };
    } catch (error) {
      await base.close();
      throw error;
    }
  };
  /**
   * What the CLI serves: a catalogue module's tools, or the built-in toolkits wired from the flags; the
   * meta-tools beside either (a catalogue's own tool of the same name wins); imported MCP tools after them.
   */
  const served = async (
    settings?: Settings,
    { publicUrl, ...serveFlags }: { demoDb?: string; publicUrl?: string } = {},
  ): Promise<ServedTools> => {
    if (!globals().registry) {
      // The config file is read once a command: by the caller that loaded its settings, else here.
      const { toolkits, egress } = settings ?? loadSettings(globals(), io);
      const host = await meta();
      return withImports(
        await serveTools(
          { ...globals(), ...serveFlags },
          toolkits,
          host,
          io,
          {
            todos: stores.todos(),
            memories: stores.memories(),
            schedules: stores.schedules(),
            scheduleTargets: seamScheduleTargets(host.seam),
            knowledge: stores.knowledge(),
            knowledgeEmbedder: await knowledgeEmbedder(),
            attachments: stores.attachments(),
            skills: stores.skills(),
            artifacts: stores.artifacts(),
            records: stores.records(),
          },
          egress,
        ),
        publicUrl,
      );
    }
    const tools = (await catalogue()).tools;
    const taken = new Set(tools.map((tool) => tool.name));
    const extra = metaTools(await meta()).filter((tool) => !taken.has(tool.name));
    const resources = await catalogueResources();
    return withImports({ tools: [...tools, ...extra], resources, close: async () => {} }, publicUrl);
  };
  addServerCommands(program, {
    io,
    globals,
    stores,
    served,
    knowledgeEmbedder,
    linkSeam: (seam) => {
      openSeam = seam;
    },
    setExitCode,
  });
  addCredentialCommands(program, { io, globals, stores, served, setExitCode });
  addAttachmentCommands(program, { io, globals, stores, setExitCode });
  addSkillCommands(program, { io, globals, stores, setExitCode });
  addKbCommands(program, { io, globals, stores, knowledgeEmbedder, setExitCode });
  const withTools = async (
    body: (
      tools: readonly AnyTool[],
      imports: readonly McpImport[],
      resources: readonly McpResourceSource[],
    ) => Promise<number> | number,
    settings?: Settings,
  ): Promise<void> => {
    const { tools, imports, resources, close } = await served(settings);
    try {
      setExitCode(await body(tools, imports ?? [], resources ?? []));
    } finally {
      await close();
    }
  };
  const withState = async (
    body: (
      state: CliState,
      imports: readonly McpImport[],
      resources: readonly McpResourceSource[],
    ) => Promise<number>,
  ): Promise<void> => {
    // Before anything is opened: a mistake in the settings leaves nothing to close.
    const settings = loadSettings(globals(), io);
    await withTools(async (tools, imports, resources) => {
      const state = await openCliState(tools, settings, globals(), await stores.open());
      openSeam = state.seam;
      try {
        return await body(state, imports, resources);
      } finally {
        openSeam = undefined;
        await state.close();
      }
    }, settings);
  };

  /** The pins in the stores, without connecting to any server. */
  const withPins = async (body: (pins: PinStore) => Promise<number>): Promise<void> => {
    setExitCode(await body((await stores.open()).pins));
  };

  program
    .command("list")
    .description("list the tools in the catalogue")
    .option("--json", "print JSON with each tool's input schema")
    .action((options: { json?: boolean }) => withTools((tools) => listTools(tools, options, io)));

  program
    .command("describe")
    .description("show one tool's declaration and JSON Schema")
    .argument("<name>", "tool name")
    .action((name: string) => withTools((tools) => describeTool(new ToolRegistry(tools), name, io)));

  program
    .command("call")
    .description("call a tool through the seam and print the envelope")
    .argument("<name>", "tool name")
    .option("--input <json>", "the arguments, as a JSON object", "{}")
    .option("--approve", "if the call needs approval, approve it as the operator and run it")
    .option("--key <key>", "idempotency key to use instead of the derived one")
    .option("--wait", "if the same key is in flight, wait for its result")
    .action((name: string, options) =>
      withState((state) => callTool(state, name, options, io, wiringFlags(program, io.cwd))),
    );

  const approvals = program.command("approvals").description("the approval inbox");
  approvals
    .command("list")
    .description("list approvals, newest first")
    .option("--status <status>", `only this status (${APPROVAL_STATUSES.join(", ")})`)
    .option("--limit <n>", "at most this many", "50")
    .option("--json", "print JSON")
    .action((options) => withState((state) => listApprovals(state, options, io)));
  approvals
    .command("approve")
    .description("approve a parked call and run it")
    .argument("<id>", "approval id")
    .option("--note <text>", "a note kept with the decision")
    .action((id: string, options) => withState((state) => decideApproval(state, "approve", id, options, io)));
  approvals
    .command("deny")
    .description("deny a parked call")
    .argument("<id>", "approval id")
    .option("--note <text>", "a note kept with the decision")
    .action((id: string, options) => withState((state) => decideApproval(state, "deny", id, options, io)));
  approvals
    .command("retry")
    .description(
      "run an interrupted call again (its run's outcome was lost): check the target system first; audited",
    )
    .argument("<id>", "approval id")
    .option("--note <text>", "a note kept with the retry")
    .action((id: string, options) => withState((state) => decideApproval(state, "retry", id, options, io)));
  approvals
    .command("answer")
    .description("answer a parked call's questions (ask_questions) and run it")
    .argument("<id>", "approval id")
    .option(
      "--answer <id=value>",
      "one answer: a choice's text picks it, any other text is written (repeat for several choices)",
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .option("--answers-json <json>", 'every answer at once, e.g. {"q1":"yes","q2":["a","b"]}')
    .option("--note <text>", "a note kept with the answers")
    .action((id: string, options) => withState((state) => answerApproval(state, id, options, io)));

  program
    .command("audit")
    .description("show the newest audit events")
    .option("--limit <n>", "at most this many", "20")
    .option("--tool <name>", "only this tool")
    .option("--json", "print JSON")
    .action((options) => withState((state) => auditCommand(state, options, io)));

  const schedules = program
    .command("schedules")
    .description("the schedules schedule_create made in the tenant (--tenant), which toolreg serve fires");
  schedules
    .command("list")
    .description("list the tenant's schedules, newest first")
    .option("--status <status>", "only this status (active, paused, cancelled, done)")
    .option("--json", "print JSON")
    .action(async (options: { status?: string; json?: boolean }) =>
      setExitCode(await listSchedules((await stores.open()).schedules, globals().tenant, options, io)),
    );
  schedules
    .command("cancel")
    .description("cancel one of the tenant's schedules: it fires no more")
    .argument("<id>", "schedule id (sch_…)")
    .action(async (id: string) =>
      setExitCode(await cancelSchedule((await stores.open()).schedules, globals().tenant, id, io)),
    );

  const mcp = program
    .command("mcp")
    .description("serve the tools as an MCP server over stdin and stdout, until stdin closes")
    .action(() =>
      withState(async (state, imports, resources) => {
        // The MCP server side is loaded by this command alone: every other command starts without it.
        const { mcpCommand } = await import("./commands/mcp.js");
        return mcpCommand(state, imports, resources);
      }),
    );
  mcp
    .command("pins")
    .description("the pinned definitions of imported MCP tools, and the changes waiting for acceptance")
    .argument("[server]", "only this server's")
    .option("--json", "print JSON")
    .action((server: string | undefined, options: { json?: boolean }) =>
      withPins((pins) => listPins(pins, server, options, io)),
    );
  mcp
    .command("accept")
    .description("accept an imported tool's changed definition, so it is served again")
    .argument("<server>", "the MCP server's name in --mcp-config")
    .argument("<tool>", "the tool's name on that server")
    .option(
      "--hash <hash>",
      "the offered definition's hash you reviewed (toolreg mcp pins), at least 12 characters",
    )
    .action((server: string, tool: string, options: { hash?: string }) =>
      withPins(async (pins) => {
        const code = await acceptPin(pins, server, tool, options.hash, globals().principal, io);
        if (code === 0) {
          await tellInstances(
            loadSettings(globals(), io),
            pino({ level: globals().logLevel }, pino.destination(2)),
            (bus) => tellPinAccepted(bus, server, tool),
            "running instances serve it when they next list that server",
            io.stderr,
          );
        }
        return code;
      }),
    );

  program
    .command("render")
    .description("print the served catalogue in a provider's function-calling format")
    .argument("<provider>", "openai-chat, openai-responses, anthropic, gemini or mcp")
    .option("--compact", "first sentence and a schema without prose or bounds; parameters kept")
    .option(
      "--budget <tokens>",
      "keep only what fits in this many tokens (o200k), find_tools first; report what was dropped",
    )
    .action((provider: string, options) => withTools((tools) => renderCommand(tools, provider, options, io)));

  program
    .command("answer")
    .description("run a model's tool calls (in a provider's message shape) and print the tool results")
    .argument("<provider>", "openai-chat, openai-responses, anthropic, gemini or mcp")
    .requiredOption(
      "--message <json>",
      "the model's message: an assistant message, output items, or MCP call params",
    )
    .action((provider: string, options: { message: string }) =>
      withState((state) => answerCommand(state, provider, options, io)),
    );

  program
    .command("find")
    .description("search the served tools for a task, ranked as find_tools ranks them")
    .argument("<query>", "what the tool should do")
    .option("--limit <n>", "at most this many", "5")
    .option("--json", "print JSON")
    .action((query: string, options) =>
      withTools(async (tools) => findCommand(tools, query, options, await loadEmbeddings(), io)),
    );

  program
    .command("check")
    .description("lint the catalogue: docs, overrides, categories, publishing triage")
    .action(async () => setExitCode(checkCommand(await catalogue(), io)));

  program
    .command("docs")
    .description("write each tool's docs page from its declaration")
    .action(async () => setExitCode(docsCommand(await catalogue(), io)));

  for (const command of program.commands)
    command.exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  return program;
}
