/**
 * @module A credential sent as HTTP Basic (RFC 7617). Some vendors take their key as a user-password pair:
 * Atlassian's API tokens (`email:token`), Mailgun's (`api:key`). The pair is stored as one secret,
 * `user:password`, and encoded on the way out, so an operator never base64-encodes a secret by hand and the
 * encoded form is never what is stored. With `otherwise: "bearer"`, a secret that is not a pair goes as a
 * Bearer token: where one host takes both a Basic API token and an OAuth access token (Atlassian's
 * api.atlassian.com), the tenant's choice of credential decides the scheme.
 */

import type { CredentialExchange } from "../../egress/egress-policy.js";
import { ToolFailure } from "../../errors/tool-failure.js";

/** `user:password` with a user that holds no colon (RFC 7617 §2) and no control character in either. */
const PAIR = /^[^:\p{Cc}]+:\P{Cc}+$/u;

export interface BasicCredentialOptions {
  /** What a secret that is not a `user:password` pair is: refused (the default) or sent as a Bearer token. */
  otherwise?: "refuse" | "bearer";
  /** How the pair is described in a refusal, e.g. "your Atlassian e-mail and API token as email:token". */
  describe?: string;
}

/**
 * The exchange for a credential placed in the `authorization` header with no scheme: it yields the whole
 * header value, `Basic <base64(user:password)>` (or `Bearer <token>`).
 */
export function basicCredential(options: BasicCredentialOptions = {}): CredentialExchange {
  return {
    async mint(secret) {
      if (PAIR.test(secret)) return `Basic ${Buffer.from(secret, "utf8").toString("base64")}`;
      if (options.otherwise === "bearer" && !/[\s\p{Cc}]/u.test(secret) && secret.length > 0)
        return `Bearer ${secret}`;
      throw new ToolFailure(
        "auth_required",
        `the stored credential is not a user:password pair; an operator must store ${options.describe ?? "it as user:password"}`,
      );
    },
  };
}
