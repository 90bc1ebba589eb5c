/**
 * @module A grant ended at one instance's `/oauth/revoke` (or by refresh-token reuse there) is refused by
 * another instance of the deployment at once, though that one had just verified it: the revocation is told
 * on the bus as `toolreg keys revoke` tells it. Two servers on one PostgreSQL schema and one NATS prefix.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Instance, recordingLogger, startInstance } from "../../../test/support/bus-instance.js";
import { freshPrefix, natsAvailable } from "../../../test/support/nats.js";
import { dropSchema, freshSchema } from "../../../test/support/postgres-schema.js";
import { postgresAvailable } from "../../../test/support/sql.js";
import { KEY_CACHE_TTL_MS } from "../key-cache.js";
import { createGrant, renewGrant } from "./oauth-grant.js";

const reachable =
  (await postgresAvailable("OAuth revocation on the bus")) &&
  (await natsAvailable("OAuth revocation on the bus"));

const schema = freshSchema();
const prefix = freshPrefix();
let a: Instance;
let b: Instance;
beforeAll(async () => {
  if (!reachable) return;
  a = await startInstance({ schema, prefix, logger: recordingLogger() });
  b = await startInstance({ schema, prefix, logger: recordingLogger() });
});
afterAll(async () => {
  if (!reachable) return;
  await a?.stop();
  await b?.stop();
  await dropSchema(schema);
});

/** A grant of a user of tenant-b, as the token endpoint makes one after consent. */
async function grant(principalId: string) {
  const { key } = await a.server.auth.createKey({ tenantId: "tenant-b", principalId });
  const user = (await a.server.auth.verifyKey(key))!;
  const grant = { clientId: "0".repeat(32), clientName: "bus test", resource: `${a.url}/mcp`, scopes: [] };
  return { grant, tokens: await createGrant(a.server.auth, user, grant, Date.now()) };
}

const status = async (instance: Instance, key: string) => (await instance.call("/manifest.json", key)).status;
const revoke = (token: string) =>
  fetch(`${a.url}/oauth/revoke`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }),
  });

describe.runIf(reachable)("OAuth grants ended on one instance", () => {
  it("a token revoked at A's /oauth/revoke is refused by B at once, though B had it cached", async () => {
    const { tokens } = await grant("oauth-revoked-on-bus");
    expect(await status(b, tokens.access_token)).toBe(200);
    const cachedAt = Date.now();
    expect((await revoke(tokens.refresh_token!)).status).toBe(200);
    await expect.poll(() => status(b, tokens.access_token), { timeout: 500, interval: 20 }).toBe(401);
    expect(Date.now() - cachedAt).toBeLessThan(KEY_CACHE_TTL_MS);
  });

  it("a reused refresh token ends the grant on B at once too", async () => {
    const { grant: bound, tokens } = await grant("oauth-reused-on-bus");
    const keyId = tokens.access_token.split("_")[1]!;
    // The rotation the token endpoint makes on a refresh: the first refresh token is spent.
    expect(await a.server.auth.redeemGrantToken("refresh", tokens.refresh_token!)).toBeDefined();
    const renewed = (await renewGrant(a.server.auth, keyId, bound, Date.now()))!;
    expect(await status(b, renewed.access_token)).toBe(200);
    const cachedAt = Date.now();
    expect((await revoke(tokens.refresh_token!)).status).toBe(200);
    await expect.poll(() => status(b, renewed.access_token), { timeout: 500, interval: 20 }).toBe(401);
    expect(Date.now() - cachedAt).toBeLessThan(KEY_CACHE_TTL_MS);
  });
});
