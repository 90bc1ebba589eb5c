/**
 * @module What an SMTP relay's refusal means to a model. RFC 5321 §4.2.1: a 4yz reply is transient (the same
 * message may succeed later: retryable), a 5yz reply is permanent (the same message will fail again: final).
 * Nothing here claims a send. A connection that ends without a reply after the whole message was written
 * (the final "." included) is neither a send nor a refusal: the relay may have queued it, so the outcome is
 * unknown and never retryable. Messages carry the relay's reply code and text, never the login it was given.
 */
import { ToolFailure } from "toolreg/toolkit";
import { type RefusedRecipient, refusedLine, unknownOutcome } from "./mail-provider.js";

/** What nodemailer puts on the errors it raises (smtp-connection's _formatError). */
export interface SmtpError {
  code?: string;
  /** The system or TLS error's own code, where nodemailer replaced it with its own (ESOCKET, ETLS …). */
  originalCode?: string;
  cause?: unknown;
  command?: string;
  response?: string;
  responseCode?: number;
  message?: string;
  rejectedErrors?: SmtpError[];
  recipient?: string;
}

/** A reply on one line and bounded: relay text is shown to a model, never trusted. */
export function replyText(reply: string | undefined): string {
  const line = (reply ?? "")
    .replace(/\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** The refused recipients an error or a send result lists, with their codes. */
export function refusedRecipients(errors: readonly SmtpError[] | undefined): RefusedRecipient[] {
  return (errors ?? []).map((error) => ({
    address: error.recipient ?? "",
    code: error.responseCode ?? null,
    reply: replyText(error.response ?? error.message),
  }));
}

function transient(code: number | undefined): boolean {
  return code !== undefined && code >= 400 && code < 500;
}

/** Node's and OpenSSL's codes for a certificate or TLS handshake that was refused. */
const TLS_CODE =
  /^(?:ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_(?:GET_ISSUER_CERT|VERIFY_LEAF_SIGNATURE|DECRYPT_CERT)|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

/** Whether the error, or the one it wraps, is a TLS or certificate refusal: configuration, not a network hiccup. */
function tlsRefusal(error: SmtpError): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 3; depth++) {
    const candidate = current as SmtpError;
    if ([candidate.code, candidate.originalCode].some((code) => code && TLS_CODE.test(code))) return true;
    if (/altname|self[- ]signed|certificate/i.test(candidate.message ?? "")) return true;
    current = candidate.cause;
  }
  return false;
}

/**
 * The failure for what nodemailer threw while sending to `relay`; `credentialRef` names the login to fix;
 * `handedOver` says whether the whole message (its final ".") had been written when it failed.
 */
export function smtpFailure(
  error: unknown,
  relay: string,
  credentialRef: string | undefined,
  handedOver = false,
): ToolFailure {
  if (ToolFailure.isInstance(error)) return error;
  const failure = (error ?? {}) as SmtpError;
  const code = failure.responseCode;
  const said = failure.response ? ` (${replyText(failure.response)})` : "";
  const details = {
    relay,
    ...(code === undefined ? {} : { replyCode: code }),
    smtpCode: failure.code ?? null,
  };
  const notSent = "the message was not sent";
  const aborted = failure.code === "EABORT" || (error as Error | undefined)?.name === "AbortError";
  if (handedOver && code === undefined) {
    // The relay had the whole message and said nothing: it may be queued. Not sent, not refused: unknown.
    return unknownOutcome(
      aborted ? "timeout" : "upstream_error",
      `${relay} received the whole message but the connection ended before it answered (${aborted ? "the call was stopped" : (failure.code ?? "connection error")})`,
      details,
    );
  }
  if (aborted) {
    return new ToolFailure(
      "timeout",
      `sending through ${relay} was stopped before the relay took the message; ${notSent}`,
      {
        retryable: true,
        details,
      },
    );
  }
  if (failure.code === "EAUTH") {
    if (transient(code)) {
      return new ToolFailure(
        "upstream_error",
        `${relay} could not check the login just now${said}; ${notSent}; a retry may work`,
        {
          retryable: true,
          details,
        },
      );
    }
    return new ToolFailure(
      "auth_required",
      `${relay} refused this deployment's login${said}; ${notSent}. An operator must store the relay's login as user:password in the credential "${credentialRef ?? "(none configured)"}"`,
      { retryable: false, details: { ...details, credentialRef: credentialRef ?? null } },
    );
  }
  const certificate = tlsRefusal(failure);
  if (failure.code === "ETLS" || /STARTTLS/i.test(failure.message ?? "") || certificate) {
    const why = certificate ? ` (TLS refused: ${replyText(failure.originalCode ?? failure.message)})` : "";
    return new ToolFailure(
      "upstream_error",
      `${relay} did not secure the connection with TLS${said}${why}; ${notSent}. The operator's configuration requires TLS: the relay must offer STARTTLS (or implicit TLS on 465) with a valid certificate for its name`,
      { retryable: false, details },
    );
  }
  if (failure.code === "EENVELOPE" && failure.command === "RCPT TO") {
    const refused = refusedRecipients(failure.rejectedErrors);
    const retryable = refused.some((entry) => transient(entry.code ?? undefined));
    return new ToolFailure(
      "upstream_error",
      `${relay} refused every recipient, so ${notSent}: ${refusedLine(refused)}. ${retryable ? "Some refusals are temporary (4xx): a retry later may work" : "The refusals are permanent (5xx): check the addresses before sending again"}`,
      { retryable, details: { ...details, refused } },
    );
  }
  if (code !== undefined) {
    const stage = failure.command ? ` at ${failure.command}` : "";
    return transient(code)
      ? new ToolFailure(
          "upstream_error",
          `${relay} deferred the message${stage} with a temporary refusal${said}; ${notSent}; try again later`,
          {
            retryable: true,
            details,
          },
        )
      : new ToolFailure(
          "upstream_error",
          `${relay} refused the message${stage} permanently${said}; ${notSent}; sending it again unchanged will fail the same way`,
          {
            retryable: false,
            details,
          },
        );
  }
  // No reply at all: the relay was not reached, or the connection broke before it answered.
  if (failure.command === undefined || failure.command === "CONN") {
    return new ToolFailure(
      "upstream_error",
      `could not reach ${relay} (${failure.code ?? "connection error"}); ${notSent}; a retry may work`,
      { retryable: true, details },
    );
  }
  // Before the final "." the relay must drop the transaction (RFC 5321 §3.8): nothing can have gone.
  return new ToolFailure(
    "upstream_error",
    `the connection to ${relay} ended at ${failure.command} before the message was handed over (${failure.code ?? "connection error"}); ${notSent}; a retry may work`,
    { retryable: true, details },
  );
}
