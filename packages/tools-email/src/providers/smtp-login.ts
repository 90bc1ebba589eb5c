/**
 * @module The relay's login: a secret stored as `user:password` under the configuration's credentialRef,
 * resolved per call through the caller's resolver (so each tenant may have its own), and never put in a
 * result or an error.
 */
import { type ToolContext, ToolFailure } from "toolreg/toolkit";

/** RFC 4616's authcid has no colon here (it splits the pair); neither part holds a control character. */
const PAIR = /^([^:\p{Cc}]+):(\P{Cc}+)$/u;

export async function resolveSmtpLogin(
  context: ToolContext,
  credentialRef: string,
): Promise<{ user: string; pass: string }> {
  const remedy = `an operator must store the relay's login as user:password in the credential "${credentialRef}"`;
  let secret: string;
  try {
    secret = await context.credentials.resolve(credentialRef, {
      tenantId: context.tenantId,
      principalId: context.principalId,
    });
  } catch {
    throw new ToolFailure(
      "auth_required",
      `the relay's login could not be resolved, so nothing was sent; ${remedy}`,
      {
        retryable: false,
        details: { credentialRef },
      },
    );
  }
  const pair = typeof secret === "string" ? PAIR.exec(secret) : null;
  if (!pair?.[1] || !pair[2]) {
    throw new ToolFailure(
      "auth_required",
      `the stored relay login is not a user:password pair, so nothing was sent; ${remedy}`,
      {
        retryable: false,
        details: { credentialRef },
      },
    );
  }
  return { user: pair[1], pass: pair[2] };
}
