/**
 * @module Opens a consent: an authorization request for one user and credential (or the pending one that
 * already covers the scopes), with its single-use state and PKCE verifier stored. Parking a call does it,
 * and so does an operator connecting a credential ahead of any call (`toolreg credentials connect --oauth`).
 */
import { randomUUID } from "node:crypto";
import type { ConsentRequest, ConsentStore } from "../../ports/consent-store.js";
import { newAuthorizationRequest } from "./authorization-request.js";
import type { OAuthClient } from "./oauth-clients.js";

export interface BeginConsent {
  requests: ConsentStore;
  client: OAuthClient;
  tenantId: string;
  principalId: string;
  credentialRef: string;
  scopes: readonly string[];
  redirectUri: string;
  now: number;
  /** How long the link works. */
  ttlMs: number;
}

export async function beginConsent(input: BeginConsent): Promise<ConsentRequest> {
  const authorization = newAuthorizationRequest({
    endpoints: input.client.endpoints,
    clientId: input.client.app.clientId,
    redirectUri: input.redirectUri,
    scopes: input.scopes,
  });
  const { request } = await input.requests.open({
    tenantId: input.tenantId,
    id: randomUUID(),
    principalId: input.principalId,
    credentialRef: input.credentialRef,
    provider: input.client.provider,
    scopes: [...input.scopes],
    stateHash: authorization.stateHash,
    codeVerifier: authorization.codeVerifier,
    redirectUri: input.redirectUri,
    authorizationUrl: authorization.url,
    createdAt: input.now,
    expiresAt: input.now + input.ttlMs,
  });
  return request;
}
