/**
 * @module toolreg/toolkit — what a toolkit is written with: `defineToolkit`, the host it binds to, and the
 * helpers every vendor call shares (a fetch through egress for SDKs, bounded pagination, rate limits).
 */
export type { EgressClient, EgressResponse } from "../../egress/egress-client.js";
export type { CredentialExchange } from "../../egress/egress-policy.js";
export { ToolFailure } from "../../errors/tool-failure.js";
export type { Artifact, ArtifactStore } from "../../ports/artifact-store.js";
export type {
  ToolkitRecord,
  ToolkitRecordKey,
  ToolkitRecordOwner,
  ToolkitRecordPage,
  ToolkitRecordStore,
} from "../../ports/toolkit-record-store.js";
export type { ToolContext } from "../../seam/context.js";
export type { ErrorCode } from "../../seam/envelope.js";
export { charsetOf, decodeText } from "../../text/decode-text.js";
export { HIDDEN_CHARACTERS, hasHiddenCharacters, oneLine } from "../../text/hidden-characters.js";
export { type PageMarkdown, pageToMarkdown } from "../../text/page-to-markdown.js";
export { type ApiRootOptions, apiRootUrl } from "./api-root.js";
export {
  type AuthKind,
  type CredentialPlacement,
  canAskForConsent,
  type OAuthEndpoints,
  type ToolkitAuth,
} from "./auth-model.js";
export { type BasicCredentialOptions, basicCredential } from "./basic-credential.js";
export { boundNote, type CollectedPages, collectPages, type Page, type PageBound } from "./collect-pages.js";
export {
  type AnyToolSpec,
  defineToolkit,
  type ReviewedOverride,
  type Toolkit,
  type ToolkitDefinition,
  type ToolkitTriage,
  type ToolSelection,
  type ToolSpec,
  type TriageRow,
  toolFor,
} from "./define-toolkit.js";
export { callOptions } from "./egress-call.js";
export { egressFetch } from "./egress-fetch.js";
export {
  createToolkitHost,
  type ToolkitEgressRequest,
  type ToolkitHost,
  type ToolkitHostOptions,
} from "./toolkit-host.js";
export { retryAfterMs, throwIfHttpError, upstreamRateLimited } from "./upstream-status.js";
export {
  credentialFailure,
  creditsFailure,
  endpointUrl,
  parseAnswer,
  quotaFailure,
  rateLimitFailure,
  sendRequest,
  shortDetail,
  statusFailure,
  type VendorIdentity,
  type VendorRequestInit,
} from "./vendor-http.js";
