/** @module The registry server's commands: `serve`, and `keys create|list|revoke|login` over its store. */
import { join } from "node:path";
import type { Command } from "commander";
import { pino } from "pino";
import { createEgressClient } from "../egress/egress-client.js";
import { syncRegistry } from "../mcp/import/sync-registry.js";
import type { AuthStore } from "../ports/auth-store.js";
import type { KnowledgeEmbedder } from "../ports/knowledge-base.js";
import { ToolRegistry } from "../registry/registry.js";
import type { Seam } from "../seam/seam.js";
import { hearPinAcceptances, tellRevoked } from "../server/instance-events.js";
import { DEFAULT_PORT } from "../server/server-defaults.js";
import { type CliIo, UsageError } from "./cli-io.js";
import { cliKnowledgeIntake } from "./cli-knowledge.js";
import { consentExchangesOf, envCredentials } from "./cli-mcp-imports.js";
import type { GlobalOptions } from "./cli-state.js";
import { type LazyCliStores, localStateDir } from "./cli-stores.js";
import type { ServedTools } from "./cli-tools.js";
import { CREDENTIALS_KEY_ENV, oauthAppsFromEnv, readCredentialsKey } from "./commands/credentials.js";
import { createKeyCommand, listKeysCommand, loginCommand, revokeKeyCommand } from "./commands/keys.js";
import { ceilingsOf, loadSettings, type Settings } from "./config-file.js";
import { egressAllowing } from "./egress-allow.js";
import { openNatsBus, tellInstances } from "./nats-bus.js";
import { openRedisCeilings } from "./redis-ceilings.js";
import { listenForStop } from "./stop-signals.js";

export interface ServerCommandHost {
  io: CliIo;
  globals(): GlobalOptions;
  /** The command's stores, opened on first need. */
  stores: LazyCliStores;
  /** The served tools, with extra flags (the demo toolkit's dataset). */
  served(settings: Settings, extra: { demoDb?: string; publicUrl?: string }): Promise<ServedTools>;
  /** The embedder the knowledge base's sources are indexed with. */
  knowledgeEmbedder(): Promise<KnowledgeEmbedder>;
  /** Links the meta-tools to the seam they call back into. */
  linkSeam(seam: Seam | undefined): void;
  setExitCode(code: number): void;
}

interface ServeFlags {
  port?: string;
  host?: string;
  store?: string;
  redis?: string;
  authFailures?: string;
  trustProxy?: string;
  credentialsKeyFile?: string;
  publicUrl?: string;
  instanceId?: string;
  corsOrigin?: string[];
}

export function addServerCommands(program: Command, host: ServerCommandHost): void {
  const { io } = host;
  program
    .command("serve")
    .description("run the registry server and its web console on the embedded SQLite store")
    .option("--port <port>", `port to listen on (default ${DEFAULT_PORT})`)
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option(
      "--store <path-or-url>",
      "the stores: a SQLite file (default: --db, or .toolreg/toolreg.db), or a postgres:// URL every instance shares",
    )
    .option(
      "--redis <url>",
      "keep the rate limits' counts in this Redis (redis://127.0.0.1:6379), shared by every instance",
    )
    .option(
      "--auth-failures <rate>",
      "failed authentications one client address may make before it is refused, unverified, with 429 (default 20/min; off)",
    )
    .option(
      "--trust-proxy <hops>",
      "read the client address from X-Forwarded-For, appended by this many proxies",
    )
    .option(
      "--credentials-key-file <path>",
      `keep credentials and ask users for consent, sealed under this 32-byte key (or the key in $${CREDENTIALS_KEY_ENV})`,
    )
    .option(
      "--instance-id <name>",
      "names this instance in the claims it holds and, hashed, in its MCP session ids, for a load balancer to route by (default host:pid)",
    )
    .option(
      "--public-url <origin>",
      "the server's origin as users' browsers and MCP clients reach it: the OAuth issuer and callbacks (default: the address a request was sent to, or http://HOST:PORT)",
    )
    .option(
      "--cors-origin <origin>",
      "let pages on this origin (http(s)://host[:port]) call /mcp and the OAuth endpoints; repeatable, added to the config file's",
      (value: string, previous: string[]) => [...previous, value],
      [],
    )
    .action(async (options: ServeFlags) => {
      // Before anything opens: a mistake in the settings is a usage error with nothing to close.
      const settings = loadSettings({ ...host.globals(), ...options }, io);
      if (options.instanceId !== undefined && !/^[A-Za-z0-9._:-]{1,100}$/.test(options.instanceId)) {
        throw new UsageError("--instance-id: 1 to 100 letters, digits, . _ : or -");
      }
      const credentialsKey = readCredentialsKey(options.credentialsKeyFile, io);
      const localCeilings = settings.redis ? undefined : ceilingsOf(settings);
      if (options.store) program.setOptionValue("db", options.store);
      const location = host.stores.location();
      const logger = pino({ level: host.globals().logLevel }, pino.destination(2));
      // First, so the credential and consent stores are opened under the key (a wrong one stops the start);
      // the registry server repairs the attachments when it starts, so opening does not do it a second time.
      const stores = await host.stores.open({ credentialsKey, reconcile: false });
      // The demo toolkit's dataset is a file of this host's, beside the SQLite store or under .toolreg/.
      const demoDb = join(localStateDir(location, io), "demo.db");
      const publicUrl =
        options.publicUrl ?? `http://${options.host ?? "127.0.0.1"}:${options.port ?? DEFAULT_PORT}`;
      const { tools, imports, resources, close } = await host.served(settings, { demoDb, publicUrl });
      let unsubscribe: (() => void)[] = [];
      let oauthEgress: ReturnType<typeof createEgressClient> | undefined;
      let knowledgeIntake: ReturnType<typeof cliKnowledgeIntake> | undefined;
      let sharedCeilings: Awaited<ReturnType<typeof openRedisCeilings>>;
      let bus: Awaited<ReturnType<typeof openNatsBus>>;
      // Whatever fails from here on (a duplicate tool name, a wrong credentials key) closes what was opened.
      try {
        sharedCeilings = await openRedisCeilings(settings);
        bus = await openNatsBus(settings, logger);
        const ceilings = sharedCeilings?.ceilings ?? localCeilings;
        const registry = new ToolRegistry(tools);
        // Imported servers' changes reach the registry, hence the console, tool.update and MCP clients.
        unsubscribe = (imports ?? []).map((imported) => syncRegistry(registry, imported, logger));
        // A change accepted anywhere (toolreg mcp accept) is served here at once, not at the next listing.
        if (bus) {
          const listening = bus;
          unsubscribe.push(
            hearPinAcceptances(
              listening,
              (server) => {
                for (const imported of imports ?? []) {
                  if (imported.name !== server) continue;
                  imported
                    .refresh()
                    .catch((error: unknown) => logger.warn({ err: error, server }, "refresh failed"));
                }
              },
              logger,
            ),
          );
        }
        // Token endpoints and OAuth clients' metadata documents are reached like any vendor: through
        // egress, with the operator's --egress-allow (a document on a private address is refused otherwise).
        oauthEgress = createEgressClient({
          policy: egressAllowing(
            host.globals().egressAllow ?? [],
            (entry) => new UsageError(`--egress-allow ${entry}`),
          ),
        });
        // Sources added over /api/v1/kb: URLs fetched under the same --egress-allow as the web tools.
        const intake = cliKnowledgeIntake({
          knowledge: stores.knowledge,
          embedder: await host.knowledgeEmbedder(),
          attachments: stores.attachments,
          egressPolicy: egressAllowing(
            host.globals().egressAllow ?? [],
            (entry) => new UsageError(`--egress-allow ${entry}`),
          ),
        });
        knowledgeIntake = intake;
        // The HTTP server (hono, the MCP SDK, OAuth) is loaded by `serve` alone: other commands start without it.
        const [{ openRegistryServer }, { serveCommand }] = await Promise.all([
          import("../server/registry-server.js"),
          import("./commands/serve.js"),
        ]);
        const server = openRegistryServer({
          registry,
          store: stores,
          knowledge: () => intake,
          logger,
          ...(options.instanceId ? { holder: options.instanceId } : {}),
          ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
          corsOrigins: settings.corsOrigins,
          oauth: { clientMetadataFetcher: oauthEgress },
          ...(credentialsKey && oauthEgress
            ? {
                credentials: {
                  key: credentialsKey,
                  publicUrl,
                  exchanges: consentExchangesOf(imports ?? []),
                  transport: oauthEgress,
                  before: [envCredentials(io.env)],
                  apps: oauthAppsFromEnv(io.env),
                },
              }
            : {}),
          onAuditFailure: settings.onAuditFailure,
          outputs: stores.outputs,
          ...(resources ? { mcpResources: resources } : {}),
          ...(ceilings ? { ceilings } : {}),
          ...(bus ? { bus } : {}),
          ...(settings.toolsets ? { toolsets: settings.toolsets } : {}),
          ...(settings.authFailures
            ? { authFailures: { ...settings.authFailures, trustProxy: settings.trustProxy } }
            : {}),
        });
        host.linkSeam(server.seam);
        const operator = { tenantId: host.globals().tenant, principalId: host.globals().principal };
        const stop = listenForStop();
        try {
          host.setExitCode(
            await serveCommand(server, operator, { ...options, drainMs: settings.drainMs }, io, logger, stop),
          );
        } finally {
          stop.dispose();
        }
      } finally {
        host.linkSeam(undefined);
        for (const stop of unsubscribe) stop();
        await oauthEgress?.close();
        await knowledgeIntake?.close();
        await sharedCeilings?.close();
        await bus?.close();
        await close();
      }
    });

  const keys = program.command("keys").description("API keys of the registry server (stored hashed)");
  /** With a bus, every instance drops the key from its cache now rather than within its second. */
  const withAuth = async (body: (auth: AuthStore) => Promise<number>) => {
    host.setExitCode(await body((await host.stores.open()).auth));
  };
  keys
    .command("create")
    .description("create a key for --tenant and --principal (both required); it is printed once")
    .option(
      "--scopes <list>",
      "comma-separated scopes, e.g. finance:read,approvals:decide; approvals:elicit lets the key's MCP client approve its own parked calls (docs/mcp.md)",
    )
    .option(
      "--key-mode <mode>",
      "the assistant mode of calls made with it: active, gated or disabled",
      "active",
    )
    .option("--operator", "may use the console and decide its tenant's approvals")
    .option("--label <text>", "a note for whoever lists keys later")
    .action((options) =>
      withAuth((auth) => {
        // --tenant and --principal are the program's options (commander gives them to the program wherever
        // they stand); a key is made only for ones typed, never for the defaults.
        for (const flag of ["tenant", "principal"] as const) {
          if (program.getOptionValueSource(flag) !== "cli") {
            throw new UsageError(`keys create needs --${flag}: say whom the key is for`);
          }
        }
        const { tenant, principal } = host.globals();
        return createKeyCommand(auth, { ...options, tenant, principal }, io);
      }),
    );
  keys
    .command("list")
    .description("list keys; only --tenant's when it is given")
    .option("--json", "print JSON")
    .action((options: { json?: boolean }) =>
      withAuth((auth) =>
        listKeysCommand(
          auth,
          {
            ...options,
            ...(program.getOptionValueSource("tenant") === "cli" ? { tenant: host.globals().tenant } : {}),
          },
          io,
        ),
      ),
    );
  keys
    .command("revoke")
    .argument("<id>", "the key id (the part after trk_ and before the next _)")
    .action((id: string) =>
      withAuth(async (auth) => {
        const code = await revokeKeyCommand(auth, id, io);
        if (code === 0) {
          await tellInstances(
            loadSettings(host.globals(), io),
            pino({ level: host.globals().logLevel }, pino.destination(2)),
            (bus) => tellRevoked(bus, id),
            "running instances stop honouring the key within a second anyway",
            io.stderr,
          );
        }
        return code;
      }),
    );
  keys
    .command("login")
    .description(
      "print a one-time console link for the tenant's newest operator key, or with --principal for that user's own newest key (to consent as themselves)",
    )
    .option("--url <origin>", "where the server listens", `http://127.0.0.1:${DEFAULT_PORT}`)
    .action((options: { url: string }) => {
      // --principal only when typed: its default names the acting operator, not a user to sign in as.
      const principal =
        program.getOptionValueSource("principal") === "cli" ? host.globals().principal : undefined;
      return withAuth((auth) => loginCommand(auth, host.globals().tenant, options.url, io, principal));
    });
}
