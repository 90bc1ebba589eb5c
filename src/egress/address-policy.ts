/** @module Decides whether an address may be connected to: by its class, or by a CIDR the deployment listed. */
import ipaddr from "ipaddr.js";
import {
  type AddressClass,
  type AddressClassification,
  classifyAddress,
  parseAddress,
} from "./classify-address.js";

export interface AddressRules {
  /** Classes that may be reached; the default is `public` alone. */
  readonly allowAddressClasses: readonly AddressClass[];
  /** Ranges that may be reached whatever their class (`metadata` excepted), e.g. `10.1.2.0/24` for an intranet API. */
  readonly allowCidrs: readonly string[];
}

export type AddressVerdict =
  | { allowed: true; classification: AddressClassification }
  | { allowed: false; classification: AddressClassification };

/** Classifies the address and says whether the rules let it through. */
export function checkAddress(address: string, rules: AddressRules): AddressVerdict {
  const classification = classifyAddress(address);
  if (rules.allowAddressClasses.includes(classification.class)) return { allowed: true, classification };
  // A CIDR never opens a metadata endpoint: a broad range written for another reason must not hand out
  // the instance's credentials. Only naming the `metadata` class does.
  if (classification.class !== "metadata" && inAllowedCidr(classification, rules.allowCidrs)) {
    return { allowed: true, classification };
  }
  return { allowed: false, classification };
}

function inAllowedCidr(classification: AddressClassification, cidrs: readonly string[]): boolean {
  if (cidrs.length === 0) return false;
  const candidates = [parseAddress(classification.address)];
  if (classification.embedded) candidates.push(parseAddress(classification.embedded.address));
  return cidrs.some((cidr) => {
    const range = ipaddr.parseCIDR(cidr);
    return candidates.some((candidate) => candidate.kind() === range[0].kind() && candidate.match(range));
  });
}
