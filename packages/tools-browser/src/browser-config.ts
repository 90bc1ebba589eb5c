/** @module The browser toolkit's configuration: where Chromium is, and the caps every session lives under. */
import { z } from "zod";

export const BrowserConfigSchema = z.strictObject({
  executablePath: z
    .string()
    .regex(/^\//, "an absolute path")
    .default("/usr/bin/chromium")
    .meta({ description: "the Chromium binary (Debian's chromium package puts it at /usr/bin/chromium)" }),
  maxSessions: z
    .number()
    .int()
    .min(1)
    .max(32)
    .default(4)
    .meta({ description: "browser sessions open at once on this host; each is its own Chromium" }),
  lifetimeMs: z
    .number()
    .int()
    .min(1_000)
    .max(60 * 60_000)
    .default(10 * 60_000)
    .meta({ description: "how long a session lives from its start, whatever it is doing" }),
  maxPages: z
    .number()
    .int()
    .min(1)
    .max(1_000)
    .default(50)
    .meta({ description: "page loads (navigations, and clicks that load a page) one session may make" }),
  maxMemoryBytes: z
    .number()
    .int()
    .min(64 * 1024 * 1024)
    .default(1024 * 1024 * 1024)
    .meta({
      description:
        "memory of a session's Chromium processes (proportional set size, summed); over it, the session is closed",
    }),
  rendererHeapMiB: z
    .number()
    .int()
    .min(32)
    .max(4_096)
    .default(512)
    .meta({ description: "V8 heap ceiling of each renderer, in MiB" }),
  ports: z
    .array(z.number().int().min(1).max(65_535))
    .min(1)
    .max(32)
    .optional()
    .meta({ description: "the only ports a page may reach; any the egress policy allows when omitted" }),
  navigationTimeoutMs: z.number().int().min(1_000).max(60_000).default(15_000),
  maxDownloadBytes: z
    .number()
    .int()
    .min(1)
    .max(100 * 1024 * 1024)
    .default(20 * 1024 * 1024),
  maxTrafficBytes: z
    .number()
    .int()
    .min(1024 * 1024)
    .max(2 * 1024 * 1024 * 1024)
    .optional()
    .meta({
      description:
        "bytes one session's proxy carries, both directions, bodies and tunnels; over it, the session is closed. Ten times maxDownloadBytes when omitted",
    }),
  tunnelIdleMs: z
    .number()
    .int()
    .min(1_000)
    .max(10 * 60_000)
    .default(120_000)
    .meta({ description: "a tunnel (HTTPS, WebSocket) with no byte either way for this long is closed" }),
  maxTunnels: z
    .number()
    .int()
    .min(1)
    .max(512)
    .default(64)
    .meta({ description: "tunnels one session may hold open at once; more are refused until one closes" }),
  sandbox: z
    .boolean()
    .optional()
    .meta({ description: "Chromium's own sandbox; on unless running as root, where Chromium cannot use it" }),
});

export type BrowserConfig = z.infer<typeof BrowserConfigSchema>;
