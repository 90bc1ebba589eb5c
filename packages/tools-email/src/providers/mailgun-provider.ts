/**
 * @module The Mailgun provider: `POST /v3/{domain}/messages.mime`, a multipart form with each recipient as a
 * `to` field (bcc included: Mailgun sends to the `to` list, not to the headers) and the composed MIME as the
 * `message` file, unchanged (documentation.mailgun.com api-sending, "messages.mime"). The key goes as HTTP
 * Basic `api:KEY`, injected by egress. Answers: 200 `{id, message: "Queued. Thank you."}` (its OpenAPI
 * description); per its response-codes page (documentation.mailgun.com/docs/mailgun/quickstart-guide/responses)
 * 400 `{message}`, 403 "Auth error or access denied", 429 rate limited ("retry as defined in the response"), 500
 * internal error. A wrong key is answered 401 with the text `Forbidden` in practice (observed and reported,
 * e.g. mailgun/mailgun.js#393; that page lists no 401). A timeout, a 5xx or an unreadable 200 after the POST
 * leaves the outcome unknown: Mailgun may have queued it.
 *
 * Delivery is read back from `GET /v3/{domain}/events?message-id=` (events are kept at least three days, per
 * recipient). Its reference requires `ascending` when no range end is given; `begin` is in epoch seconds. That
 * Events API is deprecated in favour of the Logs API (documentation.mailgun.com api-reference/send/mailgun/logs);
 * it still answers, and moving to Logs is a change of its own.
 */
import {
  callOptions,
  type EgressClient,
  type EgressResponse,
  endpointUrl,
  parseAnswer,
  rateLimitFailure,
  retryAfterMs,
  sendRequest,
  shortDetail,
  statusFailure,
  ToolFailure,
  type VendorIdentity,
} from "toolreg/toolkit";
import { z } from "zod";
import {
  type DeliveryReport,
  type MailProvider,
  type Transmission,
  unknownOutcome,
} from "./mail-provider.js";

const SendAnswer = z.object({ id: z.string().min(1).max(300), message: z.string().max(1000) });
const ErrorAnswer = z.object({ message: z.string() });
const EventItem = z.looseObject({
  event: z.string(),
  timestamp: z.number(),
  recipient: z.string().optional(),
  severity: z.string().optional(),
  reason: z.string().optional(),
  "delivery-status": z
    .looseObject({
      code: z.number().optional(),
      message: z.string().optional(),
      description: z.string().optional(),
    })
    .optional(),
  reject: z.looseObject({ reason: z.string().optional() }).optional(),
});
const EventsAnswer = z.object({ items: z.array(EventItem), paging: z.looseObject({}).optional() });
/** Mailgun's most per page: twenty recipients' events fit in one. */
const EVENTS_LIMIT = 300;
/** Events are looked for from a minute before the send was recorded (clocks differ). */
const EVENTS_SLACK_S = 60;
/** A wait read from Mailgun's text is believed up to this much. */
const MAX_SAID_WAIT_MS = 10 * 60_000;
/** Failures of the POST that cannot have reached Mailgun: the connection was never made. */
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ENETUNREACH", "EHOSTUNREACH"]);

export function createMailgunProvider(setup: {
  baseUrl: string;
  domain: string;
  egress: EgressClient;
  credentialRef: string;
}): MailProvider {
  const { egress, domain } = setup;
  const identity: VendorIdentity = {
    label: "Mailgun",
    whenRefused: `the deployment must store the API key for ${domain} as api:KEY in the credential "${setup.credentialRef}"`,
  };
  const sendUrl = endpointUrl(setup.baseUrl, `/v3/${domain}/messages.mime`);
  const eventsUrl = endpointUrl(setup.baseUrl, `/v3/${domain}/events`);
  return {
    name: "mailgun",
    label: `Mailgun (${domain})`,
    account: `${domain} at ${setup.baseUrl}`,
    async transmit(composed, context): Promise<Transmission> {
      const form = new FormData();
      for (const recipient of composed.envelope.recipients) form.append("to", recipient);
      form.append("message", new Blob([composed.mime], { type: "message/rfc822" }), "message.mime");
      // The platform's own multipart encoder: the MIME file goes in as bytes and comes out unchanged.
      const encoded = new Response(form);
      const body = new Uint8Array(await encoded.arrayBuffer());
      let response: EgressResponse;
      try {
        response = await egress.request(sendUrl, {
          method: "POST",
          headers: {
            accept: "application/json",
            "content-type": encoded.headers.get("content-type") ?? "multipart/form-data",
          },
          body,
          maxResponseBytes: 64 * 1024,
          ...callOptions(context),
        });
      } catch (error) {
        throw postFailure(error);
      }
      if (response.status >= 500) {
        throw unknownOutcome(
          "upstream_error",
          `Mailgun failed with ${response.status} after taking the request`,
          {
            status: response.status,
          },
        );
      }
      if (response.status !== 200) throw mailgunFailure(identity, response);
      const answer = SendAnswer.safeParse(jsonOf(response));
      if (!answer.success) {
        throw unknownOutcome(
          "upstream_error",
          "Mailgun answered 200 with a body that is not its send answer",
          {
            status: 200,
          },
        );
      }
      return {
        // Mailgun queues for every recipient or refuses the request: there is no per-recipient refusal here.
        accepted: [...composed.envelope.recipients],
        refused: [],
        providerMessageId: answer.data.id,
        reply: shortDetail(answer.data.message) ?? "",
      };
    },
    async delivery(providerMessageId, recipients, sentAt, context): Promise<DeliveryReport> {
      if (!providerMessageId) {
        return { known: false, recipients: [], note: "Mailgun gave no message id for this send" };
      }
      // The events filter takes the id without the angle brackets the send answer wraps it in.
      const id = providerMessageId.replace(/^<|>$/g, "");
      const query = new URLSearchParams({
        begin: String(Math.floor(sentAt / 1000) - EVENTS_SLACK_S),
        ascending: "yes",
        "message-id": id,
        limit: String(EVENTS_LIMIT),
      });
      const { response, body } = await sendRequest(egress, context, `${eventsUrl}?${query}`);
      if (response.status !== 200) throw mailgunFailure(identity, response);
      const { items } = parseAnswer(identity, response, body, EventsAnswer);
      return deliveryOf(items, recipients);
    },
  };
}

/** A failed POST: not sent when it never connected or egress refused it, otherwise perhaps queued. */
function postFailure(error: unknown): ToolFailure {
  const failure = ToolFailure.isInstance(error)
    ? error
    : new ToolFailure("internal", "the request to Mailgun failed unexpectedly");
  const details = (failure.details ?? {}) as { phase?: unknown; cause?: unknown };
  const unsent =
    failure.envelopeCode === "egress_refused" ||
    failure.envelopeCode === "auth_required" ||
    failure.envelopeCode === "invalid_input" ||
    details.phase === "connecting" ||
    (typeof details.cause === "string" && NOT_CONNECTED.has(details.cause));
  if (unsent) return failure;
  return unknownOutcome(
    failure.envelopeCode === "timeout" ? "timeout" : "upstream_error",
    `the request to Mailgun ended without its answer (${failure.message})`,
    { provider: "mailgun" },
  );
}

function jsonOf(response: EgressResponse): unknown {
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** Mailgun's refusal as the envelope code a model acts on; nothing was queued. */
export function mailgunFailure(identity: VendorIdentity, response: EgressResponse): ToolFailure {
  const parsed = ErrorAnswer.safeParse(jsonOf(response));
  const detail = shortDetail(parsed.success ? parsed.data.message : response.body.toString("utf8"));
  if (response.status === 429) {
    // Mailgun says how long in its message ("try again after 120 seconds") when it sends no Retry-After.
    const said = /try again after (\d{1,6}) seconds?/i.exec(detail ?? "")?.[1];
    const wait =
      retryAfterMs(response.headers["retry-after"]) ??
      (said ? Math.min(Number(said) * 1000, MAX_SAID_WAIT_MS) : undefined);
    return rateLimitFailure(identity, response, detail, wait);
  }
  if (response.status === 400) {
    return new ToolFailure(
      "upstream_error",
      `Mailgun rejected the message (400${detail ? `: ${detail}` : ""}); nothing was sent; change the input before trying again`,
      { retryable: false, details: { status: 400 } },
    );
  }
  return statusFailure(identity, response, detail);
}

/** Each recipient's latest event, in Mailgun's words; a recipient with none has not been processed yet. */
function deliveryOf(
  items: readonly z.output<typeof EventItem>[],
  recipients: readonly string[],
): DeliveryReport {
  const latest = new Map<string, z.output<typeof EventItem>>();
  for (const item of [...items].sort((a, b) => a.timestamp - b.timestamp)) {
    // A rejection names no recipient: it was the whole message's.
    const targets = item.recipient
      ? [item.recipient.toLowerCase()]
      : recipients.map((entry) => entry.toLowerCase());
    for (const target of targets) latest.set(target, item);
  }
  return {
    known: true,
    recipients: recipients.map((address) => {
      const item = latest.get(address.toLowerCase());
      if (!item) return { address, status: "no event yet", detail: null, at: null };
      const status = item.severity ? `${item.event} (${item.severity})` : item.event;
      const said = item["delivery-status"];
      const detail =
        shortDetail(
          [said?.code, said?.description || said?.message, item.reject?.reason, item.reason]
            .filter(Boolean)
            .join(" "),
        ) ?? null;
      return { address, status, detail, at: new Date(item.timestamp * 1000).toISOString() };
    }),
    note: "from Mailgun's events, which arrive with a delay of seconds to minutes; a temporary failure is retried by Mailgun",
  };
}
