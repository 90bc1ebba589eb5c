/**
 * @module toolreg's registry server as the consent tests run it: real HTTP on 127.0.0.1, a SQLite file,
 * credentials sealed under a fresh key, the given OAuth apps, one API key per principal; with the calls an
 * agent makes (invoke, resume) and a user's browser signed in to its console.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEgressClient } from "../../src/egress/egress-client.js";
import { type AnyTool, ToolRegistry } from "../../src/registry/registry.js";
import type { OAuthApp } from "../../src/seam/consent/token-endpoint.js";
import { silentLogger } from "../../src/seam/context.js";
import type { Envelope } from "../../src/seam/envelope.js";
import { type Listening, listen } from "../../src/server/listen.js";
import { openRegistryServer, type RegistryServer } from "../../src/server/registry-server.js";
import { type CookieJars, signedIn } from "./browser.js";

export interface Answer {
  status: number;
  envelope: Envelope;
}

export interface ConsentServer {
  server: RegistryServer;
  /** Its origin; the provider sends users back to `${url}/oauth/callback`. */
  url: string;
  /** A call over the API, as an agent makes it; the run and tool-call ids fix its idempotency key. */
  invoke(
    principal: string,
    tool: string,
    input: unknown,
    ids: { run: string; call: string },
  ): Promise<Answer>;
  /** The requester asking after a parked call. */
  resume(principal: string, parkedCallId: string): Promise<Answer>;
  /** The API key of `principal`. */
  keyOf(principal: string): string;
  /** A browser signed in to the console as `principal`, with a one-time login link as `toolreg keys login` prints. */
  browserOf(principal: string): Promise<CookieJars>;
  close(): Promise<void>;
}

export async function startConsentServer(options: {
  tools: readonly AnyTool[];
  apps: Readonly<Record<string, OAuthApp>>;
  tenantId: string;
  principals: readonly string[];
}): Promise<ConsentServer> {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-consent-"));
  // Loopback is allowed for the test's own servers alone: in a deployment the vendor is a public host.
  const transport = createEgressClient({ policy: { allowAddressClasses: ["loopback"] } });
  let publicUrl = "";
  const server = openRegistryServer({
    registry: new ToolRegistry(options.tools),
    store: join(directory, "toolreg.db"),
    logger: silentLogger,
    credentials: { key: randomBytes(32), publicUrl: () => publicUrl, transport, apps: options.apps },
  });
  const listening: Listening = await listen(server, { port: 0, host: "127.0.0.1" });
  publicUrl = listening.url;
  const keys = new Map(
    await Promise.all(
      options.principals.map(async (principalId) => {
        const created = await server.auth.createKey({
          tenantId: options.tenantId,
          principalId,
          label: "consent test",
        });
        return [principalId, created] as const;
      }),
    ),
  );
  const keyOf = (principal: string) => keys.get(principal)?.key ?? "";
  const answer = async (response: Response): Promise<Answer> => ({
    status: response.status,
    envelope: (await response.json()) as Envelope,
  });
  return {
    server,
    url: listening.url,
    keyOf,
    async invoke(principal, tool, input, ids) {
      const response = await fetch(`${listening.url}/api/v1/tools/${tool}/invoke`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${keyOf(principal)}`,
          "content-type": "application/json",
          "x-toolreg-run-id": ids.run,
          "x-toolreg-tool-call-id": ids.call,
        },
        body: JSON.stringify(input),
      });
      return answer(response);
    },
    async resume(principal, parkedCallId) {
      const response = await fetch(`${listening.url}/api/v1/consents/${parkedCallId}/resume`, {
        method: "POST",
        headers: { authorization: `Bearer ${keyOf(principal)}` },
      });
      return answer(response);
    },
    browserOf: async (principal) =>
      signedIn(listening.url, await server.auth.createLoginToken(keys.get(principal)?.record.id ?? "")),
    async close() {
      await listening.stop(1_000);
      await server.close();
      await transport.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
