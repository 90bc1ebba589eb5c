/**
 * @module `--mcp-config FILE`: the MCP servers whose tools the CLI imports. A JSON file:
 * `{ "servers": [{ "name", "command", "args", … } | { "name", "url", … }] }`. A stdio server starts in
 * the file's folder unless it names a `cwd`; credentials are `credentialRef`s (the CLI resolves `env:NAME`).
 * An HTTP server may be authorized with OAuth (`oauth`) instead of a static credential.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
import { CATEGORIES } from "../declaration/categories.js";
import { EFFECTS } from "../declaration/effect.js";
import { snakeCase } from "../mcp/import/imported-name.js";
import type { McpImportOptions } from "../mcp/import/mcp-server.js";
import { OAUTH_TOKEN_OWNERS, TOKEN_ENDPOINT_AUTH_METHODS } from "../mcp/import/oauth/mcp-oauth-settings.js";
import { UsageError } from "./cli-io.js";
import { egressAllowing } from "./egress-allow.js";

const common = {
  name: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, "letters, digits, . _ - (at most 64)"),
  prefix: z.string().optional(),
  category: z.enum(CATEGORIES).optional(),
  scopes: z.array(z.string()).optional(),
  effects: z.record(z.string(), z.enum(EFFECTS)).optional(),
  onDrift: z.enum(["withhold", "report"]).optional(),
  timeoutMs: z.number().int().positive().optional(),
};

const stdioServer = z.strictObject({
  ...common,
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  envCredentials: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
});

const httpServer = z.strictObject({
  ...common,
  url: z.url({ protocol: /^https?$/ }),
  credential: z
    .strictObject({ header: z.string(), credentialRef: z.string(), scheme: z.string().optional() })
    .optional(),
  /** Address classes or CIDRs beyond public ones, e.g. "loopback" for a server on this machine. */
  egressAllow: z.array(z.string()).optional(),
  oauth: z
    .strictObject({
      /** Whose token a call carries: the tenant's (its callers only; the default), the deployment's, or each user's. */
      per: z.enum(OAUTH_TOKEN_OWNERS).optional(),
      /**
       * The tenant whose connection it is (default --tenant), and the user asked to consent (default
       * --principal); per user, the user whose connection lists the tools.
       */
      tenant: z.string().min(1).optional(),
      principal: z.string().min(1).optional(),
      clientId: z.string().min(1).optional(),
      /** The pre-registered client's secret, as a credential reference (`env:NAME`). */
      clientSecret: z.string().min(1).optional(),
      clientMetadataUrl: z.url({ protocol: /^https$/ }).optional(),
      scopes: z.array(z.string().min(1)).optional(),
      tokenEndpointAuthMethod: z.enum(TOKEN_ENDPOINT_AUTH_METHODS).optional(),
    })
    .refine((oauth) => oauth.clientSecret === undefined || oauth.clientId !== undefined, {
      message: "clientSecret goes with the clientId it was issued for",
    })
    .optional(),
});

const configFile = z.strictObject({ servers: z.array(z.union([stdioServer, httpServer])) });

export type McpServerConfig = Omit<McpImportOptions, "pins" | "logger" | "credentials" | "onEvent">;

/** Reads and checks the file; every problem is a usage error naming the file and the field. */
export function loadMcpConfig(path: string, owner: { tenant: string; principal: string }): McpServerConfig[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new UsageError(`--mcp-config ${path}: ${(error as Error).message.split("\n")[0]}`);
  }
  const parsed = configFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`--mcp-config ${path}: ${issue?.path.join(".") || "the file"}: ${issue?.message}`);
  }
  const folder = dirname(path);
  const names = new Set<string>();
  const prefixes = new Map<string, string>();
  return parsed.data.servers.map((server) => {
    if (names.has(server.name))
      throw new UsageError(`--mcp-config ${path}: server "${server.name}" is listed twice`);
    names.add(server.name);
    // Two servers whose prefixes could make one tool name (`a` and `a_b` both give `a_b_c`) are refused:
    // one name is never resolved by the order servers are listed in.
    const effective = server.prefix ?? snakeCase(server.name);
    for (const [other, holder] of prefixes) {
      if (other === effective || other.startsWith(`${effective}_`) || effective.startsWith(`${other}_`)) {
        throw new UsageError(
          `--mcp-config ${path}: servers "${holder}" and "${server.name}" would share tool names`,
        );
      }
    }
    prefixes.set(effective, server.name);
    const { name, prefix, category, scopes, effects, onDrift, timeoutMs } = server;
    const shared = { name, prefix, category, scopes, effects, onDrift, timeoutMs };
    if ("command" in server) {
      return {
        ...shared,
        transport: {
          kind: "stdio" as const,
          command: server.command,
          args: server.args,
          env: server.env,
          envCredentials: server.envCredentials,
          cwd: resolve(folder, server.cwd ?? "."),
        },
      };
    }
    const egress = egressAllowing(
      server.egressAllow ?? [],
      (entry) =>
        new UsageError(`--mcp-config ${path}: egressAllow "${entry}" is not an address class or a CIDR`),
    );
    if (server.oauth && server.credential) {
      throw new UsageError(`--mcp-config ${path}: server "${server.name}" has both a credential and oauth`);
    }
    const oauth = server.oauth && {
      per: server.oauth.per,
      tenantId: server.oauth.tenant ?? owner.tenant,
      principalId: server.oauth.principal ?? owner.principal,
      clientId: server.oauth.clientId,
      clientSecretRef: server.oauth.clientSecret,
      clientMetadataUrl: server.oauth.clientMetadataUrl,
      scopes: server.oauth.scopes,
      tokenEndpointAuthMethod: server.oauth.tokenEndpointAuthMethod,
    };
    return {
      ...shared,
      transport: {
        kind: "http" as const,
        url: server.url,
        egress,
        credential: server.credential,
        ...(oauth ? { oauth } : {}),
      },
    };
  });
}
