/**
 * @module What one server instance keeps for its OAuth endpoints beyond the stores: the client ID metadata
 * documents it fetched (through the host's egress client), the registration limit, and the way a grant is
 * ended, which is the way any key is: revoked in the store, dropped from this instance's key cache, and
 * told to the other instances on the bus, as `toolreg keys revoke` does.
 */
import type { AuthStore } from "../../ports/auth-store.js";
import type { EventBus } from "../../ports/event-bus.js";
import { tellRevoked } from "../instance-events.js";
import type { VerifiedKeys } from "../key-cache.js";
import {
  ClientMetadataDocuments,
  type DocumentFetcher,
  isMetadataDocumentId,
} from "./client-metadata-documents.js";
import { type ClientLookup, readClient } from "./oauth-clients.js";
import { RegistrationLimit } from "./registration-limit.js";

export interface OAuthServerOptions {
  /**
   * How client ID metadata documents are fetched: an egress client, whose policy decides which addresses a
   * client_id URL may reach (`toolreg serve` passes one under `--egress-allow`; the default reaches public
   * addresses only). Without one, such client_ids are refused and the metadata does not offer them.
   */
  clientMetadataFetcher?: DocumentFetcher;
  /** Client registrations one address may make in a minute; 10 unless given. */
  registrationsPerMinute?: number;
  /** Registered clients no user consented to yet, kept at most; past it registration waits. 1,000 unless given. */
  maxUnusedClients?: number;
  /** How long a registered client no user consented to is kept; 24 h unless given. */
  unusedClientTtlMs?: number;
  /** How many proxies append to X-Forwarded-For in front of the server (the registration limit's address); 0 unless given. */
  trustProxy?: number;
}

export interface OAuthServer {
  /** Whether client_ids that are metadata documents' URLs are fetched. */
  clientMetadataDocuments: boolean;
  /** The client a client_id names: registered here, or described by the document at its URL. */
  client(clientId: string | undefined): Promise<ClientLookup>;
  registrations: RegistrationLimit;
  /** The bound on registered clients never used: how many, and for how long. */
  unusedClients: { max: number; ttlMs: number };
  trustProxy: number;
  /** Ends a grant (its key) everywhere; false when the key was unknown or already revoked. */
  endGrant(keyId: string): Promise<boolean>;
}

export function openOAuthServer(
  parts: { auth: AuthStore; keys: VerifiedKeys; bus: EventBus | undefined },
  options: OAuthServerOptions = {},
): OAuthServer {
  const fetcher = options.clientMetadataFetcher;
  const documents = fetcher && new ClientMetadataDocuments(fetcher);
  return {
    clientMetadataDocuments: documents !== undefined,
    async client(clientId) {
      if (clientId === undefined) return { ok: false, reason: "the request names no client_id" };
      if (isMetadataDocumentId(clientId)) {
        return documents
          ? documents.read(clientId)
          : {
              ok: false,
              reason: "this server fetches no client ID metadata documents: register the client instead",
            };
      }
      const client = await readClient(parts.auth, clientId);
      return client
        ? { ok: true, client }
        : { ok: false, reason: "client_id names no client registered with this server; register again" };
    },
    registrations: new RegistrationLimit({
      ...(options.registrationsPerMinute ? { perMinute: options.registrationsPerMinute } : {}),
    }),
    unusedClients: {
      max: options.maxUnusedClients ?? 1_000,
      ttlMs: options.unusedClientTtlMs ?? 24 * 60 * 60_000,
    },
    trustProxy: options.trustProxy ?? 0,
    async endGrant(keyId) {
      const revoked = await parts.auth.revokeKey(keyId);
      parts.keys.forget(keyId);
      if (parts.bus) tellRevoked(parts.bus, keyId);
      return revoked;
    },
  };
}
