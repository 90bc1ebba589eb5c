/**
 * @module The settings file: `--config FILE`, else `toolreg.config.json` in the working directory when there
 * is one. It holds the toolkits to serve and their configuration, the rate limits (and the Redis that shares
 * them between instances), the throttling of failed
 * authentication, what a call that changes data does while the audit trail cannot be written, how long
 * a stop drains, and what the toolkits' egress may reach and carry; flags are shortcuts into the same settings (`--rate-limit` rules are added to the file's,
 * `--read-root` sets the files toolkit's readRoot). Its JSON Schema is
 * `docs/toolreg.config.schema.json`, generated from `ConfigFileSchema`.
 */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { CATEGORIES } from "../declaration/categories.js";
import { ADDRESS_CLASSES } from "../egress/classify-address.js";
import type { EgressPolicyInit } from "../egress/egress-policy.js";
import type { Ceilings, Toolsets } from "../policy/ports.js";
import { type RateLimitRule, SlidingWindowCeilings } from "../policy/sliding-window-ceilings.js";
import type { AuditFailureMode } from "../seam/audit-guard.js";
import { checkOrigin } from "../server/cors-allow-list.js";
import { DEFAULT_DRAIN_MS } from "../server/server-defaults.js";
import type { CeilingsUnavailableMode } from "../stores/redis/ceilings.js";
import { type CliIo, UsageError } from "./cli-io.js";
import {
  parseRate,
  parseRateLimitRule,
  type Rate,
  RateLimitRuleSchema,
  RateSchema,
} from "./rate-limit-rules.js";

export const CONFIG_FILE = "toolreg.config.json";

/** Failed authentications one client address may make per window before it is refused: 20 a minute. */
export const DEFAULT_AUTH_FAILURES: Rate = { limit: 20, windowMs: 60_000 };

const toolNames = z.array(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "a tool name")).max(500);

export const ToolkitEntrySchema = z.strictObject({
  toolkit: z.string().min(1).max(300).meta({
    description:
      "a built-in toolkit (general, web, search, data, files, generate, sql, shell, demo), an installed package (@toolreg/tools-github) or a module path relative to the working directory (./toolkits/crm.js)",
  }),
  config: z.record(z.string(), z.unknown()).optional().meta({
    description:
      "the toolkit's configuration (its docs list the fields); credentials only as credentialRef names",
  }),
  include: toolNames.optional().meta({ description: "serve only these of its tools" }),
  exclude: toolNames.optional().meta({ description: "serve all of its tools but these" }),
});

export type ToolkitEntry = z.output<typeof ToolkitEntrySchema>;

const RedisUrlSchema = z
  .string()
  .max(2_000)
  .regex(/^rediss?:\/\/\S+$/, "a redis:// or rediss:// URL");

const NatsUrlSchema = z
  .string()
  .max(2_000)
  .regex(/^(nats|tls):\/\/\S+$/, "a nats:// URL (several separated by commas)");

const MiB = 1024 * 1024;

/**
 * What the toolkits' egress may reach and carry, over the defaults (public addresses, 1 MiB out, 5 MiB in,
 * 30 s): raised for image and video generation or transcription, within ceilings that keep one call from
 * holding the process's memory or a worker for long.
 */
export const EgressSettingsSchema = z
  .strictObject({
    maxResponseBytes: z
      .int()
      .min(1024)
      .max(256 * MiB)
      .optional()
      .meta({ description: "the most bytes of one response kept (default 5 MiB, at most 256 MiB)" }),
    maxRequestBytes: z
      .int()
      .min(1024)
      .max(64 * MiB)
      .optional()
      .meta({ description: "the largest request body sent (default 1 MiB, at most 64 MiB)" }),
    totalTimeoutMs: z
      .int()
      .min(1_000)
      .max(15 * 60_000)
      .optional()
      .meta({
        description:
          "the longest one request may take, redirects included, in milliseconds (default 30000, at most 15 minutes)",
      }),
    allowAddressClasses: z.array(z.enum(ADDRESS_CLASSES)).max(ADDRESS_CLASSES.length).optional().meta({
      description:
        "address classes reachable besides public ones (loopback, private …), as --egress-allow adds them; both are applied",
    }),
    allowCidrs: z
      .array(
        z
          .string()
          .max(64)
          .refine((cidr) => ipaddr.isValidCIDR(cidr), "a CIDR, e.g. 10.1.0.0/16"),
      )
      .max(100)
      .optional()
      .meta({ description: "address ranges reachable whatever their class, as --egress-allow adds them" }),
  })
  .meta({
    description:
      "what the toolkits' outbound requests may reach and carry; --egress-allow adds to allowAddressClasses and allowCidrs",
  });

export const ConfigFileSchema = z
  .strictObject({
    $schema: z.string().optional().meta({ description: "where an editor finds this schema" }),
    toolkits: z.array(ToolkitEntrySchema).max(200).optional().meta({
      description:
        "the toolkits to serve, in order, with their configuration. Absent: the built-in toolkits, each as its flags configure it. Flags (--read-root, --sql-read …) are shortcuts into these entries",
    }),
    toolsets: z
      .record(
        z.string().regex(/^[A-Za-z0-9._:@/-]{1,128}$/, "a tenant id"),
        z.array(z.enum(CATEGORIES)).max(CATEGORIES.length),
      )
      .optional()
      .meta({
        description:
          "per tenant, the categories of tools it has switched on: its calls, discovery and find_tools see only those. A tenant not listed sees every category",
      }),
    rateLimits: z.array(RateLimitRuleSchema).optional().meta({
      description:
        "ceilings on tool calls, every one applied: a call must fit them all. Strings as --rate-limit takes them, or objects",
    }),
    redis: z
      .union([
        RedisUrlSchema,
        z.strictObject({
          url: RedisUrlSchema,
          onUnavailable: z.enum(["deny", "allow-reads"]).optional().meta({
            description:
              "while Redis cannot be reached, calls that change data are refused (rate_limited, retryable); reads run uncounted (allow-reads, the default) or are refused too (deny)",
          }),
        }),
      ])
      .optional()
      .meta({
        description:
          "keep the rateLimits' counts in Redis (redis://host:port), shared by every instance that names the same Redis; without it each process counts its own calls",
      }),
    store: z.string().min(1).max(2_000).optional().meta({
      description:
        "where the state lives when neither --db (serve's --store) nor $TOOLREG_DB says: a SQLite file (relative to the working directory), or a postgres:// URL every instance shares, with ?schema= for the tables' schema",
    }),
    nats: z
      .union([
        NatsUrlSchema,
        z.strictObject({
          url: NatsUrlSchema,
          subjectPrefix: z
            .string()
            .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/)
            .optional()
            .meta({
              description:
                "every subject starts with it (default toolreg); deployments sharing a NATS keep apart by it",
            }),
        }),
      ])
      .optional()
      .meta({
        description:
          "the bus the instances share (nats://host:4222): approvals and key revocations reach every instance, catalogue revisions are announced as tool.update, and tool.query is answered",
      }),
    authFailures: z
      .union([z.literal(false), z.strictObject({ rate: RateSchema })])
      .optional()
      .meta({
        description:
          "how many failed authentications one client address may make before its requests are refused with 429 unverified (default 20/min); false turns this off",
      }),
    trustProxy: z
      .union([z.boolean(), z.int().min(0).max(10)])
      .optional()
      .meta({
        description:
          "how many proxies in front of the server append the address they saw to X-Forwarded-For (true: 1); the client address is read from there instead of the socket. Default 0: the header is ignored",
      }),
    corsOrigins: z.array(z.string()).optional().meta({
      description:
        "origins (http(s)://host[:port]) whose pages may call /mcp and the OAuth endpoints (CORS), past the DNS-rebinding check too; serve's --cors-origin adds to them",
    }),
    onAuditFailure: z.enum(["refuse", "alert"]).optional().meta({
      description:
        "while audit events cannot be written (a full disk): refuse calls that change data (default), or run them and log an alert. Reads run either way",
    }),
    drainMs: z
      .int()
      .min(0)
      .max(24 * 60 * 60 * 1000)
      .optional()
      .meta({
        description:
          "how long a stop (SIGTERM, SIGINT) waits for running calls, in milliseconds, before recording those that change data as interrupted (default 30000)",
      }),
    egress: EgressSettingsSchema.optional(),
  })
  .meta({ title: "toolreg.config.json", description: "Settings of the toolreg CLI and server." });

export type ConfigFile = z.output<typeof ConfigFileSchema>;

/** The settings that flags and the file decide together. */
export interface Settings {
  /** The file's toolkit entries; undefined when it lists none (the built-in toolkits are served). */
  toolkits: ToolkitEntry[] | undefined;
  /** The file's per-tenant toolsets; undefined when it lists none. */
  toolsets: Toolsets | undefined;
  rateLimits: RateLimitRule[];
  /** Where the rate limits are counted when shared by several instances; undefined counts in the process. */
  redis: { url: string; onUnavailable?: CeilingsUnavailableMode } | undefined;
  /** The file's `store`: where the state lives unless --db or $TOOLREG_DB says. */
  store: string | undefined;
  /** The event bus the instances share; undefined: each instance hears only itself. */
  nats: { url: string; subjectPrefix?: string } | undefined;
  authFailures: Rate | false;
  /** Proxies trusted to append to X-Forwarded-For; 0 reads the socket. */
  trustProxy: number;
  /** Origins allowed by CORS: the file's and the flags'. */
  corsOrigins: string[];
  onAuditFailure: AuditFailureMode;
  drainMs: number;
  /** The file's egress caps and reach, laid over the default policy; `--egress-allow` adds to its reach. */
  egress: EgressPolicyInit | undefined;
}

export interface SettingsFlags {
  config?: string | undefined;
  rateLimit?: readonly string[] | undefined;
  /** `serve --redis`: a Redis URL; replaces the file's, keeping its onUnavailable. */
  redis?: string | undefined;
  /** `--nats`: a NATS URL; replaces the file's, keeping its subject prefix. */
  nats?: string | undefined;
  /** `serve --auth-failures`: a rate, or `off`; replaces the file's. */
  authFailures?: string | undefined;
  /** `serve --trust-proxy`: a count of proxies; replaces the file's. */
  trustProxy?: string | undefined;
  /** `serve --cors-origin`, repeatable: added to the file's. */
  corsOrigin?: readonly string[] | undefined;
  /** `--on-audit-failure`: refuse or alert; replaces the file's. */
  onAuditFailure?: string | undefined;
  /** `--drain-ms`: replaces the file's. */
  drainMs?: string | undefined;
}

/** The file (if any) with the flags applied; every mistake is a usage error naming where it is. */
export function loadSettings(flags: SettingsFlags, io: CliIo): Settings {
  const file = readConfigFile(flags.config, io);
  const rateLimits = [...(file.rateLimits ?? [])];
  for (const text of flags.rateLimit ?? []) {
    const parsed = parseRateLimitRule(text);
    if (!parsed.ok) throw new UsageError(`--rate-limit ${JSON.stringify(text)}: ${parsed.message}`);
    rateLimits.push(parsed.value);
  }
  return {
    toolkits: file.toolkits,
    toolsets: toolsetsOf(file.toolsets),
    rateLimits,
    redis: redisFrom(flags.redis, file),
    store: file.store,
    nats: natsFrom(flags.nats, file),
    authFailures: authFailuresFrom(flags.authFailures, file),
    trustProxy: trustProxyFrom(flags.trustProxy, file),
    corsOrigins: corsOriginsFrom(flags.corsOrigin, file),
    onAuditFailure: (flags.onAuditFailure as AuditFailureMode | undefined) ?? file.onAuditFailure ?? "refuse",
    drainMs: drainMsFrom(flags.drainMs, file),
    egress: file.egress,
  };
}

function corsOriginsFrom(flags: readonly string[] | undefined, file: ConfigFile): string[] {
  const checked = (where: string) => (origin: string) => {
    try {
      return checkOrigin(origin);
    } catch (error) {
      throw new UsageError(`${where}: ${(error as Error).message}`);
    }
  };
  const origins = [
    ...(file.corsOrigins ?? []).map(checked("corsOrigins in the config file")),
    ...(flags ?? []).map(checked("--cors-origin")),
  ];
  return [...new Set(origins)];
}

function drainMsFrom(flag: string | undefined, file: ConfigFile): number {
  if (flag === undefined) return file.drainMs ?? DEFAULT_DRAIN_MS;
  if (!/^\d{1,8}$/.test(flag))
    throw new UsageError(`--drain-ms ${JSON.stringify(flag)}: give milliseconds, e.g. 30000`);
  return Number(flag);
}

/** The parsed file: the one --config names, else ./toolreg.config.json when it exists, else nothing. */
export function readConfigFile(path: string | undefined, io: CliIo): ConfigFile {
  const file = resolve(io.cwd, path ?? CONFIG_FILE);
  if (!existsSync(file)) {
    if (path === undefined) return {};
    throw new UsageError(`--config ${path}: no such file`);
  }
  const name = path ?? CONFIG_FILE;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`${name}: ${(error as Error).message}`);
  }
  const parsed = ConfigFileSchema.safeParse(json);
  if (!parsed.success)
    throw new UsageError(`${name}: ${parsed.error.issues.map((issue) => describeIssue(issue)).join("; ")}`);
  return parsed.data;
}

function describeIssue(issue: z.core.$ZodIssue, within: readonly PropertyKey[] = []): string {
  const path = [...within, ...issue.path];
  if (issue.code === "invalid_union") {
    // Of a string-or-object value, the branch of the value's own type says what is wrong with it.
    const meant = issue.errors.find((branch) => !branch.every(isWrongType));
    if (meant) return meant.map((inner) => describeIssue(inner, path)).join("; ");
  }
  const at = path.length === 0 ? "" : `${jsonPath(path)}: `;
  if (issue.code === "invalid_union") {
    const expected = issue.errors
      .flat()
      .map((inner) =>
        inner.code === "invalid_type"
          ? inner.expected
          : inner.code === "invalid_value"
            ? inner.values.map(String).join(" or ")
            : "",
      );
    return `${at}expected ${expected.join(" or ")}`;
  }
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.map((key) => JSON.stringify(key)).join(", ");
    const known =
      path.length === 0 ? ` (a config file holds ${Object.keys(ConfigFileSchema.shape).join(", ")})` : "";
    return `${at}unknown key ${keys}${known}`;
  }
  return `${at}${issue.message}`;
}

function isWrongType(issue: z.core.$ZodIssue): boolean {
  return issue.path.length === 0 && (issue.code === "invalid_type" || issue.code === "invalid_value");
}

/** `rateLimits[1].rate`, as a person reads a place in JSON. */
function jsonPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`,
    )
    .join("");
}

function redisFrom(flag: string | undefined, file: ConfigFile): Settings["redis"] {
  const fromFile = typeof file.redis === "string" ? { url: file.redis } : file.redis;
  if (flag === undefined) return fromFile;
  if (!RedisUrlSchema.safeParse(flag).success) {
    throw new UsageError(`--redis ${JSON.stringify(flag)}: give a URL, e.g. redis://127.0.0.1:6379`);
  }
  return { ...fromFile, url: flag };
}

function natsFrom(flag: string | undefined, file: ConfigFile): Settings["nats"] {
  const fromFile = typeof file.nats === "string" ? { url: file.nats } : file.nats;
  if (flag === undefined) return fromFile;
  if (!NatsUrlSchema.safeParse(flag).success) {
    throw new UsageError(`--nats ${JSON.stringify(flag)}: give a URL, e.g. nats://127.0.0.1:4222`);
  }
  return { ...fromFile, url: flag };
}

function authFailuresFrom(flag: string | undefined, file: ConfigFile): Rate | false {
  if (flag === undefined) {
    if (file.authFailures === undefined) return DEFAULT_AUTH_FAILURES;
    return file.authFailures === false ? false : file.authFailures.rate;
  }
  if (flag === "off") return false;
  const parsed = parseRate(flag);
  if (!parsed.ok) throw new UsageError(`--auth-failures ${JSON.stringify(flag)}: ${parsed.message}, or off`);
  return parsed.value;
}

function trustProxyFrom(flag: string | undefined, file: ConfigFile): number {
  if (flag === undefined) return file.trustProxy === true ? 1 : file.trustProxy || 0;
  const hops = Number(flag);
  if (!/^\d+$/.test(flag) || hops > 10) {
    throw new UsageError(
      `--trust-proxy ${JSON.stringify(flag)}: give how many proxies append to X-Forwarded-For, 0 to 10`,
    );
  }
  return hops;
}

/** The ceilings the rules make in this process, or none when there are no rules. */
export function ceilingsOf(settings: Pick<Settings, "rateLimits">): Ceilings | undefined {
  return settings.rateLimits.length === 0 ? undefined : new SlidingWindowCeilings(settings.rateLimits);
}

/** Each listed tenant's categories; a tenant the file does not list is not narrowed. */
function toolsetsOf(listed: ConfigFile["toolsets"]): Toolsets | undefined {
  if (listed === undefined) return undefined;
  const byTenant = new Map(
    Object.entries(listed).map(([tenant, categories]) => [tenant, new Set<string>(categories)]),
  );
  return { categoriesFor: (tenantId) => byTenant.get(tenantId) };
}
