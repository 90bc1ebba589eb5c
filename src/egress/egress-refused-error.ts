/** @module The failure the egress client throws when its policy refuses a request; the seam makes it an envelope. */
import { ToolFailure } from "../errors/tool-failure.js";
import type { AddressClass } from "./classify-address.js";

/**
 * Which rule fired. An address refusal names the address class (`loopback`, `private`, `metadata` …), so
 * the rule a reader sees is the one they would have to change.
 */
export type EgressRule =
  | AddressClass
  | "scheme"
  | "url_credentials"
  | "host_denied"
  | "host_not_allowed"
  | "credential_header"
  | "credential_query"
  | "credential_body"
  | "forbidden_header"
  | "credential_unavailable"
  | "request_body_size"
  | "redirect"
  | "redirect_method"
  | "redirect_limit"
  | "redirect_credential";

export interface EgressRefusalDetails {
  url: string;
  address?: string;
  [key: string]: unknown;
}

/** An `egress_refused` failure whose details say which rule fired, for which URL and address. */
export class EgressRefusedError extends ToolFailure {
  readonly rule: EgressRule;

  constructor(rule: EgressRule, message: string, details: EgressRefusalDetails) {
    super("egress_refused", `egress refused (${rule}): ${message}`, {
      retryable: false,
      details: { rule, ...details },
    });
    this.name = "EgressRefusedError";
    this.rule = rule;
  }
}
