/** @module What the routes share: the registry, the seam, the stores, the auth store and the event hub. */

import type { McpResourceSource } from "../mcp/serve/resources/resource-source.js";
import type { AttachmentStore } from "../ports/attachment-store.js";
import type { AuthStore } from "../ports/auth-store.js";
import type { CredentialStore } from "../ports/credential-store.js";
import type { KnowledgeBase, KnowledgeIntake } from "../ports/knowledge-base.js";
import type { ScheduleStore } from "../ports/schedule-store.js";
import type { SkillStore } from "../ports/skill-store.js";
import type { Stores } from "../ports/stores.js";
import type { ToolRegistry } from "../registry/registry.js";
import type { ConsentBinding } from "../seam/consent/consent-binding.js";
import type { CredentialResolver, Logger } from "../seam/context.js";
import type { Seam } from "../seam/seam.js";
import type { EventHub } from "./event-hub.js";
import type { InflightCalls } from "./inflight-calls.js";
import type { VerifiedKeys } from "./key-cache.js";
import type { ManifestCache } from "./manifest.js";
import type { OAuthServer } from "./oauth/oauth-server.js";

export interface ServerDeps {
  registry: ToolRegistry;
  seam: Seam;
  stores: Stores;
  auth: AuthStore;
  /** Verified API keys, remembered briefly; a revocation heard on the bus drops one at once. */
  keys: VerifiedKeys;
  hub: EventHub;
  manifests: ManifestCache;
  inflight: InflightCalls;
  /** This instance's token (a hash of its holder): the prefix of its MCP session ids. */
  instance: string;
  logger: Logger;
  /** Whether a principal may decide an approval it requested itself; off unless the deployment says so. */
  allowSelfApproval: boolean;
  /** How long a request body may take to arrive. */
  bodyTimeoutMs: number;
  /** What the calls' contexts resolve credentials with; none unless the server keeps credentials. */
  credentials: CredentialResolver | undefined;
  /** The files people upload for their agents, over /api/v1/attachments; none when the host lends no store. */
  attachments: AttachmentStore | undefined;
  /** Each tenant's skills: read over /api/v1/skills and served as prompts over /mcp; none when the host lends no store. */
  skills: SkillStore | undefined;
  /** The stored credentials, listed and revoked over /api/v1/credentials. */
  credentialStore: CredentialStore | undefined;
  /** Ties each consent to the browser of its user; none unless the server keeps credentials. */
  consentBinding: ConsentBinding | undefined;
  /** Origins whose pages may call `/mcp` and the OAuth endpoints (CORS), past the DNS-rebinding check too. */
  corsOrigins: ReadonlySet<string>;
  /** Each principal's schedules, listed and cancelled over /api/v1/schedules; none unless the host lends the store. */
  schedules?: ScheduleStore | undefined;
  /** The OAuth endpoints' own parts: client metadata documents, the registration limit, ending a grant. */
  oauth: OAuthServer;
  /** The tenants' knowledge bases and what adds to them, for /api/v1/kb; none unless the host gives an intake. */
  knowledge: { base: KnowledgeBase; intake: KnowledgeIntake } | undefined;
  /** What `/mcp` serves as resources beside the tools' docs pages: kept outputs, artifacts, the host's own. */
  mcpResources: readonly McpResourceSource[];
}
