/**
 * @module The tools of a toolkit that reaches a vendor account, as `build` makes them: each carries the
 * credential it needs (its `credentialRef`, the toolkit's auth model, its OAuth scopes), which the seam's
 * consent step reads, and turns the failures that mean "this credential" into `auth_required`: egress
 * finding no usable credential, and the vendor's 401, after which the credential is given up so the next
 * call asks for consent again; for a credential exchanged for a token it caches (a GitHub App's key, whose
 * exchange can `forget`), the token is forgotten instead, and the next call exchanges anew. An exchange
 * that only re-encodes the secret (HTTP Basic) caches nothing: its 401 refuses the credential itself.
 */
import type { CredentialExchange } from "../../egress/egress-policy.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import type { AnyTool } from "../../registry/registry.js";
import { isInspector } from "../../seam/consent/credential-inspector.js";
import {
  type CredentialNeed,
  howToConfigure,
  withCredentialNeed,
} from "../../seam/consent/credential-need.js";
import type { CredentialResolver, ToolContext } from "../../seam/context.js";
import { canAskForConsent, type ToolkitAuth } from "./auth-model.js";
import type { ToolkitHost } from "./toolkit-host.js";

/** The host as `bind` sees it, noting each credential reference it asks egress to inject, and its exchanges that cache a token. */
export function watchCredentialRefs(host: ToolkitHost): {
  host: ToolkitHost;
  refs(): readonly string[];
  exchanges(): readonly CredentialExchange[];
} {
  const refs = new Set<string>();
  const exchanges: CredentialExchange[] = [];
  return {
    host: {
      // What the host lends besides (the sandbox, the stores) passes through; only egress is watched.
      ...host,
      sandbox: host.sandbox,
      onClose: (close) => host.onClose(close),
      egress(request) {
        if (request?.credential) refs.add(request.credential.credentialRef);
        if (request?.credential?.exchange?.forget) exchanges.push(request.credential.exchange);
        return host.egress(request);
      },
    },
    refs: () => [...refs],
    exchanges: () => [...exchanges],
  };
}

/**
 * The built tools, each carrying its credential need. A toolkit that injected no credential (or several,
 * which no one need could name) is left as it is.
 */
export function bindCredentials(
  toolkit: {
    id: string;
    auth: ToolkitAuth;
    tools: readonly { name: string; oauthScopes?: readonly string[] }[];
  },
  tools: readonly AnyTool[],
  refs: readonly string[],
  exchanges: readonly CredentialExchange[] = [],
): readonly AnyTool[] {
  const { auth } = toolkit;
  const [credentialRef] = refs;
  if (auth.kind === "none" || credentialRef === undefined || refs.length > 1) return tools;
  return Object.freeze(
    tools.map((tool) => {
      const scopes = toolkit.tools.find((spec) => spec.name === tool.name)?.oauthScopes ?? [];
      const consent = canAskForConsent(auth) ? auth : undefined;
      const need: CredentialNeed = {
        provider: toolkit.id,
        credentialRef,
        auth: auth.kind,
        oauth: consent?.oauth,
        scopes,
        impliedScopes: consent?.impliedScopes ?? {},
      };
      return withCredentialNeed(
        {
          ...tool,
          async run(input: unknown, context: ToolContext) {
            const sent: CredentialsSent = { count: 0, last: undefined };
            try {
              return await tool.run(input, recordingResolves(context, sent));
            } catch (error) {
              throw (await credentialFailure(error, tool.name, need, context, sent, exchanges)) ?? error;
            }
          },
        },
        need,
      );
    }),
  );
}

/** What a call's requests carried: how many asked for the credential, and the secret last resolved. */
interface CredentialsSent {
  count: number;
  /** What a vendor's 401 refused: only this is given up, not a credential stored since. */
  last: string | undefined;
}

/** The context the tool runs with, recording each resolve of the credential its requests carry. */
function recordingResolves(context: ToolContext, sent: CredentialsSent): ToolContext {
  const credentials: CredentialResolver = {
    async resolve(ref, scope) {
      sent.count++;
      const secret = await context.credentials.resolve(ref, scope);
      sent.last = secret;
      return secret;
    },
  };
  return {
    tenantId: context.tenantId,
    principalId: context.principalId,
    runId: context.runId,
    toolCallId: context.toolCallId,
    scopes: context.scopes,
    mode: context.mode,
    deadline: context.deadline,
    // Read through: the seam's abort reaches the tool through the one signal.
    get signal() {
      return context.signal;
    },
    credentials,
    logger: context.logger,
    idempotencyKey: context.idempotencyKey,
    approvalId: context.approvalId,
  };
}

/** What to tell a model whose call found its credential unusable: how the credential comes back. */
function remedy(need: CredentialNeed): string {
  return need.oauth
    ? `call it again: the user is asked to connect ${need.provider} (or ${howToConfigure(need).replace(/^an operator must/, "an operator may")})`
    : howToConfigure(need);
}

async function credentialFailure(
  error: unknown,
  toolName: string,
  need: CredentialNeed,
  context: ToolContext,
  sent: CredentialsSent,
  exchanges: readonly CredentialExchange[],
): Promise<ToolFailure | undefined> {
  if (!ToolFailure.isInstance(error)) return undefined;
  const details = { credentialRef: need.credentialRef, provider: need.provider };
  // The request that failed is counted too: more than one means earlier ones carried the credential.
  const earlier = sent.count - 1;
  if (error.envelopeCode === "egress_refused" && error.details?.rule === "credential_unavailable") {
    if (earlier <= 0) {
      return new ToolFailure(
        "auth_required",
        `${toolName} was not run: its credential "${need.credentialRef}" is not usable; nothing was sent. To run it, ${remedy(need)}`,
        { retryable: false, details },
      );
    }
    return new ToolFailure(
      "upstream_error",
      `${toolName} stopped partway: its credential "${need.credentialRef}" became unusable after ${earlier} earlier request(s) that may have taken effect; check before calling again. To run it, ${remedy(need)}`,
      { retryable: false, details },
    );
  }
  if (error.details?.status !== 401) return undefined;
  if (exchanges.length > 0) return exchangedRefused(toolName, need, context, earlier, exchanges);
  // The vendor refused the token (revoked, expired, uninstalled): it is not offered again, so the next call
  // asks for consent instead of failing the same way. Only the token sent: one stored since is kept.
  if (isInspector(context.credentials) && sent.last !== undefined) {
    await context.credentials
      .reject(
        need.credentialRef,
        { tenantId: context.tenantId, principalId: context.principalId },
        `${need.provider} answered 401 to ${toolName}`,
        sent.last,
      )
      .catch((rejectError: unknown) =>
        context.logger.error({ err: rejectError, tool: toolName }, "could not give up a refused credential"),
      );
  }
  const refused = { ...details, status: 401, credentialRejected: true };
  if (earlier <= 0) {
    return new ToolFailure(
      "auth_required",
      `${need.provider} refused the credential "${need.credentialRef}" (401): it was revoked or has expired, and is no longer used. ${toolName} did nothing; ${remedy(need)}`,
      { retryable: false, details: refused },
    );
  }
  // An earlier request of this call carried the credential and may have had its effect.
  return new ToolFailure(
    "upstream_error",
    `${need.provider} refused the credential "${need.credentialRef}" (401) partway through ${toolName}, after ${earlier} earlier request(s) that may have taken effect; check before calling again. The credential is no longer used; ${remedy(need)}`,
    { retryable: false, details: refused },
  );
}

/**
 * The vendor refused the token a secret was exchanged for (an App's installation token, revoked or expired
 * early): the token is forgotten so the next call mints another, and the secret, which may be fine, is kept.
 */
function exchangedRefused(
  toolName: string,
  need: CredentialNeed,
  context: ToolContext,
  earlier: number,
  exchanges: readonly CredentialExchange[],
): ToolFailure {
  for (const exchange of exchanges)
    exchange.forget?.({ tenantId: context.tenantId, principalId: context.principalId });
  const refused = `${need.provider} refused the token exchanged for the credential "${need.credentialRef}" (401); it is forgotten and the next call gets a new one`;
  const details = { credentialRef: need.credentialRef, provider: need.provider, status: 401 };
  return earlier <= 0
    ? new ToolFailure("upstream_error", `${refused}. ${toolName} did nothing; call it again`, {
        retryable: true,
        details,
      })
    : new ToolFailure(
        "upstream_error",
        `${refused}. ${toolName} stopped after ${earlier} earlier request(s) that may have taken effect; check before calling again`,
        { retryable: false, details },
      );
}
