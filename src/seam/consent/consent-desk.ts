/**
 * @module Step 5½, consent: a call whose credential is missing, revoked, expired beyond refresh or short of
 * a scope it needs is parked (once per key, nothing sent) with an authorization URL, when its toolkit can
 * ask the user; one pending consent serves every call of that user waiting on that credential. The
 * callback stores the tokens and resumes each parked call once, through the approval step and the
 * idempotency key, as an approved call is resumed.
 */
import { randomUUID } from "node:crypto";
import type { ConsentRequest, ParkedCall } from "../../ports/consent-store.js";
import type { AnyTool } from "../../registry/registry.js";
import { withCallSpan } from "../../telemetry/call-span.js";
import { isVisible, unmetPrecondition, validateInput } from "../call-checks.js";
import { beginCallSpan, callEvent, recordAudit, recordCall } from "../call-record.js";
import { type CallTrace, newCallTrace } from "../call-trace.js";
import { type AssistantMode, createExecutionContext, type ExecutionContext } from "../context.js";
import { type Envelope, failure } from "../envelope.js";
import { fingerprintOf, idempotencyKeyFor, storableInput } from "../idempotency-key.js";
import type { CallOptions, SeamSettings } from "../seam-settings.js";
import { storeFailure } from "../store-failure.js";
import { hashState } from "./authorization-request.js";
import { beginConsent } from "./begin-consent.js";
import type { ConsentOptions } from "./consent-options.js";
import type { CredentialInspector, CredentialProblem } from "./credential-inspector.js";
import { type CredentialNeed, credentialNeedOf, howToConfigure } from "./credential-need.js";
import { requestToken } from "./token-endpoint.js";

/** What the callback came to: the calls it resumed, or why it could not. */
export type ConsentCompletion =
  | {
      ok: true;
      /** The consent the callback completed: its binding is spent. */
      consentId: string;
      tenantId: string;
      principalId: string;
      credentialRef: string;
      provider: string;
      resumed: { parkedCallId: string; toolName: string; envelope: Envelope }[];
    }
  | {
      ok: false;
      reason: "unknown_state" | "declined" | "exchange_failed" | "wrong_issuer";
      message: string;
      /** The consent whose state the callback spent, when it named one. */
      consentId?: string;
    };

/** A consent a user started ahead of any call: toolreg's start link, or why there is none. */
export type ConnectStart =
  | { ok: true; consentId: string; consentUrl: string; expiresAt: number }
  | { ok: false; reason: "consent_unavailable" | "oauth_app_not_configured"; message: string };

/** What a principal may do now (their current API key's grant), for a call resumed without them present. */
export type GrantOf = (
  tenantId: string,
  principalId: string,
) => Promise<{ scopes: readonly string[]; mode: AssistantMode } | undefined>;

/** The callback's query: a code, or the provider's error (RFC 6749 §4.1.2.1). */
export interface ConsentCallback {
  state: string | undefined;
  /**
   * The consents this browser was sent to the provider for by toolreg's start link, as the host verified
   * them: a state is accepted only for one of these, so another user's authorization URL stores nothing.
   */
  consentIds: readonly string[];
  /** The `iss` the provider sent back (RFC 9207), if it sends one. */
  issuer?: string | undefined;
  code?: string | undefined;
  error?: string | undefined;
  errorDescription?: string | undefined;
}

/** Steps 6–9 for a call the consent let through: approval, then the run under its key. */
export type ContinueCall = (
  context: ExecutionContext,
  tool: AnyTool,
  raw: unknown,
  input: unknown,
  options: CallOptions,
  trace: CallTrace,
) => Promise<Envelope>;

/** Whose grant a resumed call runs with: the requester's context, or their current key's scopes and mode. */
type Requester = Pick<ExecutionContext, "scopes" | "mode"> & { logger?: ExecutionContext["logger"] };

/** A principal with no live key: the resumed call is refused, and says why. */
const disabled: Requester = { scopes: [], mode: "disabled" };

type Shortfall = { problem: CredentialProblem | "scopes"; message: string; granted: readonly string[] };

const WHY: Record<Shortfall["problem"], string> = {
  missing: "is not connected",
  revoked: "was revoked",
  expired: "has expired and could not be refreshed",
  unreachable: "could not be checked",
  scopes: "lacks a scope it needs",
};

export class ConsentDesk {
  readonly #settings: SeamSettings;
  readonly #options: ConsentOptions;
  readonly #continue: ContinueCall;

  constructor(settings: SeamSettings, options: ConsentOptions, continueCall: ContinueCall) {
    this.#settings = settings;
    this.#options = options;
    this.#continue = continueCall;
  }

  /** Undefined when the credential is usable with the scopes the tool needs; else why the call stops here. */
  async gate(
    context: ExecutionContext,
    tool: AnyTool,
    raw: unknown,
    need: CredentialNeed,
    trace: CallTrace,
  ): Promise<Envelope | undefined> {
    const shortfall = await this.#shortfall(context, need);
    if (!shortfall) return undefined;
    const ref = need.credentialRef;
    if (shortfall.problem === "unreachable") {
      return failure("upstream_error", `${tool.name} was not run: ${shortfall.message}; retry shortly`, {
        retryable: true,
        retryAfterMs: 5_000,
        details: { credentialRef: ref, provider: need.provider },
      });
    }
    const details = { credentialRef: ref, provider: need.provider, problem: shortfall.problem };
    if (!need.oauth) {
      return failure(
        "auth_required",
        `${tool.name} was not run: its credential "${ref}" ${WHY[shortfall.problem]}; ${howToConfigure(need)}`,
        { details },
      );
    }
    return this.#park(context, tool, raw, need, shortfall, trace);
  }

  /**
   * The callback: the state names the consent (used once, before it expires), the code is exchanged with
   * its PKCE verifier, the tokens are stored as the user's, and every call of theirs waiting on the
   * credential is resumed once. A user who declined ends those calls.
   */
  async complete(callback: ConsentCallback, grantOf?: GrantOf): Promise<ConsentCompletion> {
    const { requests, credentials, clients, transport } = this.#options;
    const { now } = this.#settings;
    const request =
      typeof callback.state === "string" && callback.state.length > 0
        ? await requests.take({
            stateHash: hashState(callback.state),
            consentIds: callback.consentIds,
            now: now(),
          })
        : undefined;
    if (!request) {
      return {
        ok: false,
        reason: "unknown_state",
        message:
          "this consent is unknown, was already used, has expired, or was not started in this browser from toolreg's consent link by the user it is for; call the tool again for a new link",
      };
    }
    // An imported MCP server's consent is completed by its own client, which found its server by discovery.
    const external = this.#options.exchanges?.(request.provider);
    const client = external ? undefined : await clients.clientFor(request.tenantId, request.provider);
    const expected = client?.endpoints.issuer;
    // RFC 9207 §2.4: a client that knows its server's issuer rejects an answer without `iss` as well.
    const wrongIssuer = external
      ? await external
          .wrongIssuer(callback.issuer)
          .catch(() => `${request.provider}'s authorization server, which could not be reached to check it`)
      : expected !== undefined && callback.issuer !== expected
        ? `${request.provider}'s authorization server (${expected})`
        : undefined;
    if (wrongIssuer !== undefined) {
      // The state is spent: an answer from the wrong server is not exchanged anywhere, and the calls keep waiting.
      const from = callback.issuer === undefined ? "no issuer" : callback.issuer.slice(0, 200);
      return {
        ok: false,
        reason: "wrong_issuer",
        consentId: request.id,
        message: `this answer named ${from}, not ${wrongIssuer}; nothing was stored. Call the tool again for a new link`,
      };
    }
    if (callback.error !== undefined || !callback.code) {
      const said = callback.error
        ? `${callback.error}${callback.errorDescription ? `: ${callback.errorDescription}` : ""}`
        : "no code";
      const message = `${request.principalId} did not connect ${request.provider} (${said.slice(0, 300)}); the calls waiting on it were not run`;
      await this.#endWaiting(request, failure("approval_denied", message));
      return { ok: false, reason: "declined", consentId: request.id, message };
    }
    let tokens: Awaited<ReturnType<typeof requestToken>> | undefined;
    let stored: readonly string[] | undefined;
    try {
      if (external) stored = await external.exchange(request, callback.code);
      else {
        if (!client) throw new Error(`no OAuth app for ${request.provider} is configured any longer`);
        tokens = await requestToken(
          transport,
          client.endpoints.tokenUrl,
          client.app,
          {
            type: "authorization_code",
            code: callback.code,
            codeVerifier: request.codeVerifier,
            redirectUri: request.redirectUri,
          },
          now(),
        );
      }
    } catch (error) {
      // The calls keep waiting: the next call of this user asks for consent again, and its completion resumes them.
      return {
        ok: false,
        reason: "exchange_failed",
        consentId: request.id,
        message: `${request.provider} did not give tokens for this consent: ${(error as Error).message}`,
      };
    }
    const scopes = stored ?? tokens?.scopes ?? [...request.scopes];
    if (tokens)
      await credentials.put({
        tenantId: request.tenantId,
        principalId: request.principalId,
        ref: request.credentialRef,
        kind: "oauth",
        provider: request.provider,
        scopes,
        expiresAt: tokens.expiresAt,
        secrets: { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken },
        connectedBy: request.principalId,
        at: now(),
      });
    await this.#recordGrant(request, scopes);
    const waiting = await requests.waiting({
      tenantId: request.tenantId,
      principalId: request.principalId,
      credentialRef: request.credentialRef,
    });
    const resumed = await Promise.all(
      waiting.map(async (call) => ({
        parkedCallId: call.id,
        toolName: call.toolName,
        // Without a way to know the user's grant now, the one they called with.
        envelope: await this.resume(
          call,
          grantOf ? ((await grantOf(call.tenantId, call.requestedBy)) ?? disabled) : undefined,
        ),
      })),
    );
    return {
      ok: true,
      consentId: request.id,
      tenantId: request.tenantId,
      principalId: request.principalId,
      credentialRef: request.credentialRef,
      provider: request.provider,
      resumed,
    };
  }

  /**
   * Where toolreg's consent link sends its user: the provider's authorization URL, for the consent's own
   * principal while it is pending; nothing for anyone else, so a link passed on connects no one.
   */
  async authorizationOf(
    user: { tenantId: string; principalId: string },
    consentId: string,
  ): Promise<{ ok: true; url: string; expiresAt: number } | { ok: false; message: string }> {
    const request = await this.#options.requests.getRequest({ tenantId: user.tenantId, id: consentId });
    if (
      !request ||
      request.principalId !== user.principalId ||
      request.status !== "pending" ||
      request.expiresAt <= this.#settings.now()
    ) {
      return {
        ok: false,
        message: `this consent link is not for ${user.principalId}, was already used, or has expired; sign in as the user it is for, or call the tool again for a new link`,
      };
    }
    return { ok: true, url: request.authorizationUrl, expiresAt: request.expiresAt };
  }

  /**
   * A user connects a credential ahead of any call: a consent opened as parking a call opens one, answered
   * with toolreg's start link (the provider's URL carries the live state, and only the link binds it).
   */
  async connect(
    user: { tenantId: string; principalId: string },
    need: CredentialNeed,
    scopes: readonly string[],
  ): Promise<ConnectStart> {
    if (!need.oauth) {
      return {
        ok: false,
        reason: "consent_unavailable",
        message: `${need.provider} cannot ask for consent; ${howToConfigure(need)}`,
      };
    }
    const client = await this.#options.clients.clientFor(user.tenantId, need.provider);
    if (!client) {
      return {
        ok: false,
        reason: "oauth_app_not_configured",
        message: `no OAuth app for ${need.provider} is configured to ask ${user.principalId} for consent; configure it, or ${howToConfigure(need)}`,
      };
    }
    const request = await beginConsent({
      requests: this.#options.requests,
      client,
      tenantId: user.tenantId,
      principalId: user.principalId,
      credentialRef: need.credentialRef,
      scopes,
      redirectUri: this.#redirectUri(),
      now: this.#settings.now(),
      ttlMs: this.#options.stateTtlMs ?? 10 * 60_000,
    });
    return {
      ok: true,
      consentId: request.id,
      consentUrl: this.#options.consentLink(request.id),
      expiresAt: request.expiresAt,
    };
  }

  /** The requester asks after a parked call: its result once resumed, else it is resumed now if it can be. */
  async resumeFor(context: ExecutionContext, parkedCallId: string, options: CallOptions): Promise<Envelope> {
    const call = await this.#options.requests.getCall({ tenantId: context.tenantId, id: parkedCallId });
    if (!call || call.requestedBy !== context.principalId) {
      return failure("not_authorized", `there is no parked call "${parkedCallId}" of yours in this tenant`);
    }
    return this.resume(call, context, options);
  }

  /**
   * Resumes a parked call once: checked again as at resume of an approval (visibility with the scopes it
   * was made with, or its requester's current ones; its tool unchanged; its arguments; the credential),
   * then through approval and its key. Its result is kept, so a second resume answers the same.
   */
  async resume(
    call: ParkedCall,
    requester: Requester | undefined,
    options: CallOptions = {},
  ): Promise<Envelope> {
    if (call.status === "resumed" && call.result) return call.result;
    if (call.status === "expired") {
      return failure(
        "approval_denied",
        `parked call ${call.id} expired before its user connected the credential`,
      );
    }
    const trace = newCallTrace("tool-call", call.toolName, Date.now(), "consent");
    const context = this.#contextOf(call, requester);
    beginCallSpan(this.#settings, context, trace);
    let envelope: Envelope;
    let final = true;
    try {
      const resumed = () => this.#resumed(call, context, options, trace);
      ({ envelope, final } = await (trace.span ? withCallSpan(trace.span, resumed) : resumed()));
    } catch (error) {
      envelope = storeFailure(`resume parked call ${call.id}`, error);
      final = false;
    }
    if (final) {
      try {
        const settled = await this.#options.requests.settle({
          tenantId: call.tenantId,
          id: call.id,
          result: envelope,
          at: this.#settings.now(),
        });
        if (!settled) {
          // Another resume settled it first: its answer is the call's, and this one replayed it under the key.
          const settledCall = await this.#options.requests.getCall({ tenantId: call.tenantId, id: call.id });
          if (settledCall?.result) envelope = settledCall.result;
        }
      } catch (error) {
        // Unsettled, the call stays parked: asked again, it replays its result under its key.
        envelope = storeFailure(`settle parked call ${call.id}`, error);
      }
    }
    const recorded = recordCall(this.#settings, context, trace, envelope);
    if (recorded) await recorded;
    return envelope;
  }

  /** Housekeeping: parked calls past their time expire, used and expired consents are dropped. */
  sweep(): Promise<number> {
    return this.#options.requests.expire({ now: this.#settings.now() });
  }

  async #resumed(
    call: ParkedCall,
    context: ExecutionContext,
    options: CallOptions,
    trace: CallTrace,
  ): Promise<{ envelope: Envelope; final: boolean }> {
    const tool = this.#settings.registry.get(call.toolName);
    trace.tool = tool;
    trace.idempotencyKey = call.idempotencyKey;
    if (context.mode === "disabled" || !tool || !isVisible(this.#settings, context, tool)) {
      const message = `${call.toolName} is no longer available to this caller; parked call ${call.id} was not run`;
      return { envelope: failure("not_authorized", message), final: true };
    }
    if (tool.hash !== call.definitionHash) {
      const message = `${tool.name} changed since the call was parked; parked call ${call.id} was not run. Call it again`;
      return { envelope: failure("precondition_failed", message), final: true };
    }
    const input = await validateInput(tool, call.input);
    if (!input.ok) return { envelope: input.envelope, final: true };
    const unmet = await unmetPrecondition(tool, context);
    if (unmet) return { envelope: unmet, final: false };
    const need = credentialNeedOf(tool);
    // Still short (the user granted fewer scopes, or revoked it meanwhile): it keeps waiting, with a new link.
    const stopped = need ? await this.gate(context, tool, call.input, need, trace) : undefined;
    if (stopped) return { envelope: stopped, final: false };
    const held = await this.#settings.audit.admit(tool.name);
    if (held) return { envelope: held, final: false };
    const envelope = await this.#continue(
      context,
      tool,
      call.input,
      input.value,
      { onInProgress: "wait", ...options },
      trace,
    );
    // A passing failure (a store, a stop, a key still in flight) leaves it waiting, to be resumed again.
    return { envelope, final: envelope.ok || !envelope.error.retryable };
  }

  async #shortfall(context: ExecutionContext, need: CredentialNeed): Promise<Shortfall | undefined> {
    const scope = { tenantId: context.tenantId, principalId: context.principalId };
    let check: Awaited<ReturnType<CredentialInspector["inspect"]>>;
    try {
      check = await this.#options.resolver.inspect(need.credentialRef, scope);
    } catch (error) {
      return {
        problem: "unreachable",
        message: `the credential store failed: ${(error as Error).message}`,
        granted: [],
      };
    }
    if (!check.usable) return { problem: check.problem, message: check.message, granted: [] };
    const granted = check.scopes;
    // The vendor reports its grant normalised: `project` granted holds the `read:project` a tool asks for.
    const held = new Set(granted?.flatMap((scope) => [scope, ...(need.impliedScopes[scope] ?? [])]));
    const lacking = granted ? need.scopes.filter((scope) => !held.has(scope)) : [];
    if (lacking.length === 0) return undefined;
    return {
      problem: "scopes",
      message: `the connection lacks ${lacking.join(", ")}`,
      granted: granted ?? [],
    };
  }

  async #park(
    context: ExecutionContext,
    tool: AnyTool,
    raw: unknown,
    need: CredentialNeed,
    shortfall: Shortfall,
    trace: CallTrace,
  ): Promise<Envelope> {
    const stored = storableInput(raw);
    if (!stored.ok) return failure("invalid_input", `invalid input for ${tool.name}: ${stored.reason}`);
    const { stores, now } = this.#settings;
    const { requests, clients } = this.#options;
    const key = idempotencyKeyFor(context);
    trace.idempotencyKey = key;
    const fingerprint = fingerprintOf(context.principalId, tool.name, stored.json);
    const details = {
      credentialRef: need.credentialRef,
      provider: need.provider,
      problem: shortfall.problem,
    };
    try {
      // The call may have run under its key already (resumed after an earlier consent): that is its answer.
      const previous = await stores.idempotency.get({ tenantId: context.tenantId, key });
      if (previous && previous.fingerprint !== fingerprint) return conflict(key);
      if (previous?.status === "completed" && previous.envelope) {
        trace.replayed = true;
        return previous.envelope;
      }
      const client = await clients.clientFor(context.tenantId, need.provider);
      if (!client) {
        return failure(
          "auth_required",
          `${tool.name} was not run: its credential "${need.credentialRef}" ${WHY[shortfall.problem]}, and no OAuth app for ${need.provider} is configured to ask ${context.principalId} for consent; ${howToConfigure(need)}, or configure the OAuth app`,
          { details },
        );
      }
      // Asking again for a scope keeps those granted: the new token replaces the old one whole.
      const at = now();
      const request = await beginConsent({
        requests,
        client,
        tenantId: context.tenantId,
        principalId: context.principalId,
        credentialRef: need.credentialRef,
        scopes: [...new Set([...shortfall.granted, ...need.scopes])],
        redirectUri: this.#redirectUri(),
        now: at,
        ttlMs: this.#options.stateTtlMs ?? 10 * 60_000,
      });
      const { call } = await requests.park({
        tenantId: context.tenantId,
        id: randomUUID(),
        consentId: request.id,
        requestedBy: context.principalId,
        credentialRef: need.credentialRef,
        toolName: tool.name,
        definitionHash: tool.hash,
        input: raw,
        runId: context.runId,
        toolCallId: context.toolCallId,
        idempotencyKey: key,
        fingerprint,
        callerScopes: [...context.scopes],
        mode: context.mode,
        createdAt: at,
        expiresAt: at + (this.#options.callTtlMs ?? 60 * 60_000),
      });
      if (call.fingerprint !== fingerprint) return conflict(key);
      if (call.status === "resumed" && call.result) return call.result;
      return parkedEnvelope(
        tool,
        context,
        call,
        request,
        shortfall,
        details,
        this.#options.consentLink(request.id),
      );
    } catch (error) {
      return storeFailure(`park ${tool.name} for consent`, error);
    }
  }

  #redirectUri(): string {
    const { redirectUri } = this.#options;
    return typeof redirectUri === "function" ? redirectUri() : redirectUri;
  }

  /** A user who declined ends every call of theirs waiting on the credential. */
  async #endWaiting(request: ConsentRequest, envelope: Envelope): Promise<void> {
    const { requests } = this.#options;
    const waiting = await requests.waiting({
      tenantId: request.tenantId,
      principalId: request.principalId,
      credentialRef: request.credentialRef,
    });
    for (const call of waiting) {
      await requests.settle({
        tenantId: call.tenantId,
        id: call.id,
        result: envelope,
        at: this.#settings.now(),
      });
    }
  }

  /** The context a parked call resumes in: its own identity and key, its requester's scopes and mode. */
  #contextOf(call: ParkedCall, requester: Requester | undefined): ExecutionContext {
    return createExecutionContext({
      tenantId: call.tenantId,
      principalId: call.requestedBy,
      runId: call.runId,
      toolCallId: call.toolCallId,
      scopes: requester?.scopes ?? call.callerScopes,
      mode: requester?.mode ?? call.mode,
      idempotencyKey: call.idempotencyKey,
      credentials: this.#options.resolver,
      logger: requester?.logger ?? this.#settings.logger,
    });
  }

  /** An audit event that a user connected a credential: who, which, with which scopes; never a token. */
  async #recordGrant(request: ConsentRequest, scopes: readonly string[]): Promise<void> {
    const context = createExecutionContext({
      tenantId: request.tenantId,
      principalId: request.principalId,
      runId: `consent-${request.id}`,
      toolCallId: request.id,
      logger: this.#settings.logger,
    });
    const event = callEvent(
      this.#settings,
      "consent-grant",
      context,
      undefined,
      `credential:${request.credentialRef}`,
      {
        outcome: "ok",
        message: `${request.principalId} connected ${request.provider} as "${request.credentialRef}"${scopes.length > 0 ? ` with ${scopes.join(", ")}` : ""}`,
      },
    );
    await recordAudit(this.#settings, event, this.#settings.logger);
  }
}

function conflict(key: string): Envelope {
  return failure(
    "idempotency_conflict",
    `idempotency key "${key}" was already used for another call (other arguments, another tool or another caller); nothing was parked or run. Use a new key for a different call`,
  );
}

/** The answer to a parked call: what the user must do, where, and that the call will run by itself. */
function parkedEnvelope(
  tool: AnyTool,
  context: ExecutionContext,
  call: ParkedCall,
  request: ConsentRequest,
  shortfall: Shortfall,
  details: Record<string, unknown>,
  consentLink: string,
): Envelope {
  const minutes = Math.max(1, Math.round((request.expiresAt - request.createdAt) / 60_000));
  // toolreg's own link, not the provider's: the authorization URL carries the live state, which belongs
  // neither in the audit trail nor in a model's context, and only the start link binds it to its user.
  return failure(
    "auth_required",
    `${tool.name} has not run: the ${request.provider} connection "${request.credentialRef}" of ${context.principalId} ${WHY[shortfall.problem]}. Ask ${context.principalId} to open ${consentLink} in a browser signed in to the toolreg console as ${context.principalId}, and allow access (the link works for ${minutes} minutes). The call is parked as ${call.id} and runs by itself once they do; do not call it again`,
    {
      details: {
        ...details,
        parkedCallId: call.id,
        consentId: request.id,
        consentUrl: consentLink,
        scopes: [...request.scopes],
        expiresAt: new Date(request.expiresAt).toISOString(),
      },
    },
  );
}
