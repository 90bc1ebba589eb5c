/** @module The egress client and its policy: the one way toolreg's tools reach the network. */
export { type AddressRules, type AddressVerdict, checkAddress } from "./address-policy.js";
export {
  ADDRESS_CLASSES,
  type AddressClass,
  type AddressClassification,
  classifyAddress,
  type EmbeddingForm,
} from "./classify-address.js";
export { type ResolvedAddress, type Resolver, systemResolver } from "./dns-resolver.js";
export {
  createEgressClient,
  EGRESS_METHODS,
  EgressClient,
  type EgressClientOptions,
  type EgressMethod,
  type EgressRequestInit,
  type EgressResponse,
} from "./egress-client.js";
export {
  assertCredentialPlacement,
  type CredentialPlacement,
  DEFAULT_EGRESS_POLICY,
  type EgressPolicy,
  type EgressPolicyInit,
  type HostCredential,
  MAX_REDIRECTS,
  resolveEgressPolicy,
} from "./egress-policy.js";
export { type EgressRefusalDetails, EgressRefusedError, type EgressRule } from "./egress-refused-error.js";
export type { EgressCaller } from "./request-headers.js";
