/**
 * @module The tools of a toolkit that reaches a vendor account, as `build` makes them: each carries the
 * credential it needs (its `credentialRef`, the toolkit's auth model, its OAuth scopes), which the seam's
 * consent step reads, and turns the failures that mean "this credential" into `auth_required`: egress
 * finding no usable credential, and the vendor's 401, after which the credential is given up so the next
 * call asks for consent again.
 */
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

/** The host as `bind` sees it, noting each credential reference it asks egress to inject. */
export function watchCredentialRefs(host: ToolkitHost): { host: ToolkitHost; refs(): readonly string[] } {
  const refs = new Set<string>();
  return {
    host: {
      sandbox: host.sandbox,
      onClose: (close) => host.onClose(close),
      egress(request) {
        if (request?.credential) refs.add(request.credential.credentialRef);
        return host.egress(request);
      },
    },
    refs: () => [...refs],
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
): readonly AnyTool[] {
  const { auth } = toolkit;
  const [credentialRef] = refs;
  if (auth.kind === "none" || credentialRef === undefined || refs.length > 1) return tools;
  return Object.freeze(
    tools.map((tool) => {
      const scopes = toolkit.tools.find((spec) => spec.name === tool.name)?.oauthScopes ?? [];
      const need: CredentialNeed = {
        provider: toolkit.id,
        credentialRef,
        auth: auth.kind,
        oauth: canAskForConsent(auth) ? auth.oauth : undefined,
        scopes,
      };
      return withCredentialNeed(
        {
          ...tool,
          async run(input: unknown, context: ToolContext) {
            let used = 0;
            try {
              return await tool.run(
                input,
                countingResolves(context, () => used++),
              );
            } catch (error) {
              throw (await credentialFailure(error, tool.name, need, context, used)) ?? error;
            }
          },
        },
        need,
      );
    }),
  );
}

/** The context the tool runs with, counting the requests that carried the credential. */
function countingResolves(context: ToolContext, onResolve: () => void): ToolContext {
  const credentials: CredentialResolver = {
    resolve(ref, scope) {
      onResolve();
      return context.credentials.resolve(ref, scope);
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
  used: number,
): Promise<ToolFailure | undefined> {
  if (!ToolFailure.isInstance(error)) return undefined;
  const details = { credentialRef: need.credentialRef, provider: need.provider };
  if (error.envelopeCode === "egress_refused" && error.details?.rule === "credential_unavailable") {
    return new ToolFailure(
      "auth_required",
      `${toolName} was not run: its credential "${need.credentialRef}" is not usable; nothing was sent. To run it, ${remedy(need)}`,
      { retryable: false, details },
    );
  }
  if (error.details?.status !== 401) return undefined;
  // The vendor refused the token (revoked, expired, uninstalled): it is not offered again, so the next call
  // asks for consent instead of failing the same way.
  if (isInspector(context.credentials)) {
    await context.credentials
      .reject(
        need.credentialRef,
        { tenantId: context.tenantId, principalId: context.principalId },
        `${need.provider} answered 401 to ${toolName}`,
      )
      .catch((rejectError: unknown) =>
        context.logger.error({ err: rejectError, tool: toolName }, "could not give up a refused credential"),
      );
  }
  const refused = { ...details, status: 401, credentialRejected: true };
  if (used <= 1) {
    return new ToolFailure(
      "auth_required",
      `${need.provider} refused the credential "${need.credentialRef}" (401): it was revoked or has expired, and is no longer used. ${toolName} did nothing; ${remedy(need)}`,
      { retryable: false, details: refused },
    );
  }
  // An earlier request of this call carried the credential and may have had its effect.
  return new ToolFailure(
    "upstream_error",
    `${need.provider} refused the credential "${need.credentialRef}" (401) partway through ${toolName}, after ${used - 1} earlier request(s) that may have taken effect; check before calling again. The credential is no longer used; ${remedy(need)}`,
    { retryable: false, details: refused },
  );
}
