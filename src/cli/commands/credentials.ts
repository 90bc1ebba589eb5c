/**
 * @module `toolreg credentials connect|list|revoke`: the credentials in the stores, sealed under the
 * operator's key (`--credentials-key-file`, or the key itself in `$TOOLREG_CREDENTIALS_KEY`). `connect`
 * reads a token on stdin (never an argument, which would stay in the shell's history) or, with `--oauth`,
 * prints the link a user opens to connect through `toolreg serve`'s callback. A secret is never printed.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import {
  type CredentialMetadata,
  type CredentialStore,
  pastedSecretProblem,
} from "../../ports/credential-store.js";
import type { SealedStores } from "../../ports/deployment-stores.js";
import type { AnyTool } from "../../registry/registry.js";
import { beginConsent } from "../../seam/consent/begin-consent.js";
import { credentialUsedFor, oauthProvidersOf } from "../../seam/consent/credential-need.js";
import { OAuthClients } from "../../seam/consent/oauth-clients.js";
import type { OAuthApp } from "../../seam/consent/token-endpoint.js";
import { CALLBACK_PATH, START_PATH } from "../../server/server-credentials.js";
import { DEFAULT_PORT } from "../../server/server-defaults.js";
import { parseSecretKey, SecretBoxError } from "../../stores/sql/secret-box.js";
import { type CliIo, UsageError } from "../cli-io.js";
import type { GlobalOptions } from "../cli-state.js";
import type { LazyCliStores } from "../cli-stores.js";
import { formatJson, formatTable } from "../format.js";

/** The environment variable that holds the key itself, when no key file is named. */
export const CREDENTIALS_KEY_ENV = "TOOLREG_CREDENTIALS_KEY";

/** The operator's key from `--credentials-key-file`, else `$TOOLREG_CREDENTIALS_KEY`; undefined when neither. */
export function readCredentialsKey(keyFile: string | undefined, io: CliIo): Uint8Array | undefined {
  let text: string | undefined;
  let where = `$${CREDENTIALS_KEY_ENV}`;
  if (keyFile) {
    where = `--credentials-key-file ${keyFile}`;
    try {
      text = readFileSync(resolve(io.cwd, keyFile), "utf8");
    } catch (error) {
      throw new UsageError(`${where}: ${(error as Error).message}`);
    }
  } else {
    text = io.env[CREDENTIALS_KEY_ENV];
  }
  if (text === undefined || text === "") return undefined;
  try {
    return parseSecretKey(text);
  } catch (error) {
    throw new UsageError(`${where}: ${(error as Error).message}`);
  }
}

/**
 * The deployment's OAuth apps from the environment: `TOOLREG_OAUTH_<PROVIDER>_CLIENT_ID` and
 * `_CLIENT_SECRET` (a public client has no secret), the provider being a toolkit id in capitals.
 */
export function oauthAppsFromEnv(env: CliIo["env"]): Record<string, OAuthApp> {
  const apps: Record<string, OAuthApp> = {};
  for (const [name, value] of Object.entries(env)) {
    const provider = /^TOOLREG_OAUTH_([A-Z0-9_]+)_CLIENT_ID$/.exec(name)?.[1];
    if (!provider || !value) continue;
    const secret = env[`TOOLREG_OAUTH_${provider}_CLIENT_SECRET`];
    apps[provider.toLowerCase()] = { clientId: value, ...(secret ? { clientSecret: secret } : {}) };
  }
  return apps;
}

export interface CredentialCommandHost {
  io: CliIo;
  globals(): GlobalOptions;
  /** The command's stores, opened on first need. */
  stores: LazyCliStores;
  /** The served tools: which toolkit uses a credential ref, and its OAuth endpoints. */
  served(): Promise<{ tools: readonly AnyTool[]; close(): Promise<void> }>;
  setExitCode(code: number): void;
  /** What was typed on stdin; the process's stdin unless a test gives it. */
  stdin?: () => Promise<string>;
}

interface ConnectOptions {
  for?: string;
  provider?: string;
  account?: string;
  scopes?: string;
  oauth?: boolean;
  url?: string;
  credentialsKeyFile?: string;
}

export function addCredentialCommands(program: Command, host: CredentialCommandHost): void {
  const { io } = host;
  const credentials = program
    .command("credentials")
    .description("credentials kept sealed in the state file: connect, list (metadata only), revoke");
  const keyOption = [
    "--credentials-key-file <path>",
    `the operator's key (default $${CREDENTIALS_KEY_ENV})`,
  ] as const;
  /** Opens the credential and consent stores, sealed under the operator's key, for one command. */
  const withStore = async (
    keyFile: string | undefined,
    body: (store: CredentialStore, sealed: SealedStores) => Promise<number>,
  ) => {
    const key = readCredentialsKey(keyFile, io);
    if (!key) {
      throw new UsageError(
        `the credentials are sealed: give the operator's key with --credentials-key-file or $${CREDENTIALS_KEY_ENV}`,
      );
    }
    let sealed: SealedStores | undefined;
    try {
      sealed = (await host.stores.open({ credentialsKey: key })).sealed;
    } catch (error) {
      // A key other than the one the credentials are sealed under is the operator's mistake to correct.
      if (error instanceof SecretBoxError) throw new UsageError(error.message);
      throw error;
    }
    if (!sealed) throw new Error("the stores were opened before the credentials key was read");
    host.setExitCode(await body(sealed.credentials, sealed));
  };

  credentials
    .command("connect")
    .description(
      "store a token typed on stdin as <ref> (the tenant's, or --for a principal's), or --oauth: print the link a user opens to connect",
    )
    .argument("<ref>", "the credentialRef the toolkit is configured with, e.g. github")
    .option(
      "--for <principal>",
      "a principal's own credential (with --oauth, the user who consents; default --principal)",
    )
    .option("--provider <id>", "the toolkit it is for (default: the served toolkit that uses <ref>)")
    .option("--account <name>", "the vendor account it belongs to, shown by list")
    .option("--scopes <list>", "comma-separated scopes it grants, or with --oauth asks for")
    .option("--oauth", "print the authorization link instead of reading a token")
    .option("--url <origin>", "with --oauth: where toolreg serve listens", `http://127.0.0.1:${DEFAULT_PORT}`)
    .option(...keyOption)
    .action((ref: string, options: ConnectOptions) =>
      withStore(options.credentialsKeyFile, async (store, sealed) => {
        const { tools, close } = await host.served();
        try {
          const provider = providerOf(ref, tools, options.provider);
          const scopes = listOf(options.scopes);
          if (!options.oauth) return await storeToken(store, ref, provider, scopes, options, host);
          const principalId = options.for ?? host.globals().principal;
          const origin = (options.url ?? "").replace(/\/$/, "");
          const clients = new OAuthClients({
            providers: oauthProvidersOf(tools),
            apps: oauthAppsFromEnv(io.env),
            credentials: store,
          });
          const client = await clients.clientFor(host.globals().tenant, provider);
          if (!client) {
            throw new UsageError(
              `${provider} cannot be connected with OAuth here: no served toolkit declares its OAuth endpoints, or no OAuth app is configured (TOOLREG_OAUTH_${provider.toUpperCase()}_CLIENT_ID, or the tenant's oauth-app:${provider})`,
            );
          }
          const request = await beginConsent({
            requests: sealed.consents,
            client,
            tenantId: host.globals().tenant,
            principalId,
            credentialRef: ref,
            scopes,
            redirectUri: `${origin}${CALLBACK_PATH}`,
            now: Date.now(),
            ttlMs: 10 * 60_000,
          });
          // toolreg's start link, not the provider's URL: only the start link binds the consent to its user.
          io.stdout(`${origin}${START_PATH}/${request.id}\n`);
          io.stderr(
            `open it as ${principalId} within 10 minutes, in a browser signed in to the console at ${origin} as ${principalId} (toolreg keys login --principal ${principalId} prints a sign-in link); toolreg serve stores the connection as "${ref}"\n`,
          );
          return 0;
        } finally {
          await close();
        }
      }),
    );

  credentials
    .command("list")
    .description("list the tenant's credentials: metadata only, never a secret")
    .option("--json", "print JSON")
    .option(...keyOption)
    .action((options: { json?: boolean; credentialsKeyFile?: string }) =>
      withStore(options.credentialsKeyFile, async (store) => {
        const listed = await store.list({ tenantId: host.globals().tenant });
        io.stdout(options.json ? formatJson(listed) : table(listed));
        return 0;
      }),
    );

  credentials
    .command("revoke")
    .description("revoke a credential: its secrets are erased; the next call that needs it asks again")
    .argument("<ref>", "the credentialRef")
    .option("--for <principal>", "a principal's own credential (default: the tenant's)")
    .option(...keyOption)
    .action((ref: string, options: { for?: string; credentialsKeyFile?: string }) =>
      withStore(options.credentialsKeyFile, async (store) => {
        const whose = options.for ? `${options.for}'s` : `tenant ${host.globals().tenant}'s`;
        const revoked = await store.revoke({
          tenantId: host.globals().tenant,
          principalId: options.for,
          ref,
          at: Date.now(),
          reason: `revoked by ${host.globals().principal}`,
        });
        if (!revoked) {
          io.stderr(`error: ${whose} credential "${ref}" does not exist or was revoked already\n`);
          return 1;
        }
        io.stdout(`revoked ${whose} credential "${ref}"\n`);
        return 0;
      }),
    );
}

/** The provider a ref is for: given, else the one served toolkit whose tools use it. */
function providerOf(ref: string, tools: readonly AnyTool[], given: string | undefined): string {
  if (given) return given;
  const used = credentialUsedFor(tools, ref);
  if (used.ok) return used.need.provider;
  throw new UsageError(`${used.message} (--provider <toolkit>)`);
}

async function storeToken(
  store: CredentialStore,
  ref: string,
  provider: string,
  scopes: string[],
  options: ConnectOptions,
  host: CredentialCommandHost,
): Promise<number> {
  const { io } = host;
  if (process.stdin.isTTY && !host.stdin) io.stderr(`paste the token for "${ref}", then press Ctrl-D\n`);
  const token = (await (host.stdin ?? readStdin)()).trim();
  const problem = pastedSecretProblem(token);
  if (problem) throw new UsageError(`type one token on stdin: ${problem}`);
  const stored = await store.put({
    tenantId: host.globals().tenant,
    principalId: options.for,
    ref,
    kind: "token",
    provider,
    scopes,
    account: options.account,
    secrets: { accessToken: token },
    connectedBy: host.globals().principal,
    at: Date.now(),
  });
  io.stdout(`stored ${whoseOf(stored)} credential "${ref}" for ${provider} (version ${stored.version})\n`);
  return 0;
}

function readStdin(): Promise<string> {
  return new Promise((resolveText, reject) => {
    let text = "";
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk: string) => {
      text += chunk;
    });
    process.stdin.on("end", () => resolveText(text));
    process.stdin.on("error", reject);
  });
}

function listOf(text: string | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

function whoseOf(credential: CredentialMetadata): string {
  return credential.principalId === undefined
    ? `tenant ${credential.tenantId}'s`
    : `${credential.principalId}'s`;
}

function table(credentials: readonly CredentialMetadata[]): string {
  const time = (at: number | undefined) => (at === undefined ? "-" : new Date(at).toISOString());
  return formatTable(
    ["REF", "WHOSE", "KIND", "PROVIDER", "SCOPES", "ACCOUNT", "EXPIRES", "REVOKED"],
    credentials.map((credential) => [
      credential.ref,
      credential.principalId ?? "(tenant)",
      credential.kind,
      credential.provider,
      credential.scopes.join(",") || "-",
      credential.account ?? "-",
      time(credential.expiresAt),
      credential.revokedAt === undefined
        ? "-"
        : `${time(credential.revokedAt)} (${credential.revokedReason ?? ""})`,
    ]),
  );
}
