/**
 * @module Refresh token reuse (OAuth 2.1 §4.3.1): every client here is public, so its refresh tokens rotate,
 * and a rotated one presented again means two parties hold the grant (the client and whoever copied its
 * token); the server cannot tell which is which, so the whole grant ends, as `toolreg keys revoke` ends it.
 */
import type { ServerDeps } from "../server-deps.js";

/** Ends the grant whose spent refresh token this is; false when it is no spent token of a live grant. */
export async function endReusedGrant(deps: ServerDeps, token: string): Promise<boolean> {
  const keyId = await deps.auth.spentGrantToken("refresh", token);
  if (keyId === undefined) return false;
  await deps.oauth.endGrant(keyId);
  deps.logger.warn({ keyId }, "OAuth refresh token used twice: its grant is ended");
  return true;
}
