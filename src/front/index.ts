/**
 * @module toolreg/host — the library's front door: toolkits and tools in, call, render, find, approvals and
 * consent out; with what a host builds its `consent` option from.
 */
export { type ConsentBinding, createConsentBinding } from "../seam/consent/consent-binding.js";
export type { ConsentCallback, ConsentCompletion, GrantOf } from "../seam/consent/consent-desk.js";
export type { ConsentOptions } from "../seam/consent/consent-options.js";
export { type CredentialInspector, chainCredentialResolvers } from "../seam/consent/credential-inspector.js";
export {
  OAuthClients,
  type OAuthClientsOptions,
  type OAuthProviderEndpoints,
} from "../seam/consent/oauth-clients.js";
export {
  createStoreCredentialResolver,
  type StoreCredentialResolverOptions,
} from "../seam/consent/store-credential-resolver.js";
export type { OAuthApp, OAuthTransport } from "../seam/consent/token-endpoint.js";
export {
  type Caller,
  createToolreg,
  type ToolkitUse,
  type Toolreg,
  type ToolregOptions,
} from "./create-toolreg.js";
