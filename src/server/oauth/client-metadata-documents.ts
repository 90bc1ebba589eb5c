/**
 * @module Client ID metadata documents (draft-ietf-oauth-client-id-metadata-document, which the MCP
 * authorization spec 2025-11-25 says servers should support): a client whose client_id is an HTTPS URL is
 * not registered here; its metadata is the JSON document at that URL. The fetch is an outbound request
 * made for whoever sent the client_id, so it goes through egress (private addresses refused unless the
 * operator's policy allows them, no redirects, a small body, a short time), and what comes back is checked
 * as a registration is, and must name itself.
 */

import { ToolFailure } from "../../errors/tool-failure.js";
import { type ClientLookup, checkClientMetadata, MAX_URI_LENGTH } from "./oauth-clients.js";

/** The draft's suggested ceiling (§6.6 of -00): a client's metadata is a few URIs and names. */
export const MAX_DOCUMENT_BYTES = 5 * 1024;
const FETCH_TIMEOUT_MS = 5_000;
/** Long enough that one flow's three reads (authorize, consent, token) fetch once; short enough that a change is seen. */
const CACHE_TTL_MS = 5 * 60_000;
/**
 * A refusal is remembered too, briefly: anyone can send a client_id, and without it every request naming
 * the same URL would be another outbound request (requests in flight for one URL share one fetch as well).
 */
const REFUSAL_TTL_MS = 30_000;
const MAX_CACHED = 1_000;
const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Whether a client_id is meant as a metadata document's URL rather than a registered client's id. */
export const isMetadataDocumentId = (clientId: string): boolean => /^https:\/\//i.test(clientId);

/**
 * How a document is fetched: toolreg's egress client satisfies it (the host passes one in, the server may
 * not import egress), so the operator's address rules hold. A refusal or failure throws; a ToolFailure's
 * message is shown.
 */
export interface DocumentFetcher {
  request(
    url: string,
    init: {
      headers: Record<string, string>;
      timeoutMs: number;
      maxResponseBytes: number;
      redirect: "manual";
    },
  ): Promise<{ status: number; headers: Record<string, string>; body: Uint8Array; truncated: boolean }>;
}

export class ClientMetadataDocuments {
  readonly #egress: DocumentFetcher;
  readonly #now: () => number;
  readonly #cache = new Map<string, { read: Promise<ClientLookup>; until: number }>();

  constructor(egress: DocumentFetcher, clock: () => number = Date.now) {
    this.#egress = egress;
    this.#now = clock;
  }

  /** The client the document at `clientId` describes, fetched or remembered; or why it cannot be used. */
  async read(clientId: string): Promise<ClientLookup> {
    const urlRefusal = clientIdUrlRefusal(clientId);
    if (urlRefusal) return { ok: false, reason: `client_id ${clientId.slice(0, 200)} ${urlRefusal}` };
    const cached = this.#cache.get(clientId);
    if (cached && cached.until > this.#now()) return cached.read;
    if (this.#cache.size >= MAX_CACHED) this.#cache.clear();
    const fetched = this.#fetch(clientId).catch(
      (): ClientLookup => ({ ok: false, reason: "the client's metadata document could not be read" }),
    );
    const entry = { read: fetched, until: Number.POSITIVE_INFINITY };
    this.#cache.set(clientId, entry);
    const read = await entry.read;
    entry.until = this.#now() + (read.ok ? CACHE_TTL_MS : REFUSAL_TTL_MS);
    return read;
  }

  async #fetch(clientId: string): Promise<ClientLookup> {
    const refused = (why: string): ClientLookup => ({
      ok: false,
      reason: `the client's metadata document at ${clientId.slice(0, 200)} ${why}`,
    });
    let response: Awaited<ReturnType<DocumentFetcher["request"]>>;
    try {
      response = await this.#egress.request(clientId, {
        headers: { accept: "application/json" },
        timeoutMs: FETCH_TIMEOUT_MS,
        maxResponseBytes: MAX_DOCUMENT_BYTES,
        redirect: "manual",
      });
    } catch (error) {
      const message = ToolFailure.isInstance(error) ? error.message : "could not be reached";
      return refused(`could not be fetched: ${message}`);
    }
    if (response.status !== 200) return refused(`answered ${response.status}, not 200`);
    if (!JSON_TYPE.test(response.headers["content-type"] ?? "")) {
      return refused(`is ${response.headers["content-type"] ?? "of no stated type"}, not JSON`);
    }
    if (response.truncated) return refused(`is larger than ${MAX_DOCUMENT_BYTES} bytes`);
    let document: unknown;
    try {
      document = JSON.parse(Buffer.from(response.body).toString("utf8"));
    } catch {
      return refused("is not valid JSON");
    }
    if (typeof document !== "object" || document === null || Array.isArray(document)) {
      return refused("is not a JSON object");
    }
    const fields = document as Record<string, unknown>;
    // Simple string comparison (§4.1 of -00): the document must be about the URL it was fetched from.
    if (fields.client_id !== clientId) return refused("names another client_id");
    if ("client_secret" in fields || /^client_secret_/.test(String(fields.token_endpoint_auth_method))) {
      return refused("asks for a client secret, which such a client cannot have");
    }
    const checked = checkClientMetadata(document);
    if (!checked.ok) return refused(`is refused: ${checked.description}`);
    return {
      ok: true,
      client: {
        clientId,
        redirectUris: checked.metadata.redirect_uris,
        name: checked.metadata.client_name,
      },
    };
  }
}

/** Why a URL cannot be a client_id (§3 of -00: https, a path, no dot segments, fragment or credentials), or undefined. */
function clientIdUrlRefusal(clientId: string): string | undefined {
  if (clientId.length > MAX_URI_LENGTH) return `is longer than ${MAX_URI_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return "is not a URL";
  }
  if (url.protocol !== "https:") return "is not an https URL";
  if (url.username !== "" || url.password !== "") return "may not hold a user name or password";
  if (url.hash !== "" || clientId.includes("#")) return "may not have a fragment";
  // URL parsing removes dot segments, so the raw path is read.
  const rawPath = clientId.replace(/^https:\/\/[^/?#]*/i, "").split(/[?#]/)[0] ?? "";
  if (rawPath.split("/").some((segment) => segment === "." || segment === "..")) {
    return "may not have . or .. path segments";
  }
  if (url.pathname === "/" || url.pathname === "") return "must have a path";
  return undefined;
}
