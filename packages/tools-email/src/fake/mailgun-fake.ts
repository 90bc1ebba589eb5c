/**
 * @module A local Mailgun. What it reproduces, and from where:
 * - `POST /v3/{domain}/messages.mime`, multipart/form-data with `to` and the `message` file, HTTP Basic
 *   `api:KEY`: 200 `{"id": "<…@domain>", "message": "Queued. Thank you."}` (Mailgun's OpenAPI description, as
 *   its MCP server ships it);
 * - the response-codes page (documentation.mailgun.com/docs/mailgun/quickstart-guide/responses) lists 400
 *   "typically … a JSON response with a message key", 403 "Auth error or access denied", 404, 429 (retry "as
 *   defined in the response") and 500; it gives no bodies beyond 400's `{message}`, so the 403 and 500 texts
 *   here are this fake's own;
 * - a wrong key: 401 with the text body `Forbidden` — not on that page, but what Mailgun answers (reported in
 *   mailgun/mailgun.js#393 "{ status: 401, details: 'Forbidden' }" and gpit2286/mailgun-es6#12);
 * - 400 `{"message": "'to' parameter is not a valid address. please check documentation"}`;
 * - 429 `{"message": "… try again after 120 seconds"}`: observed wording, not documented, with and without
 *   Retry-After;
 * - `GET /v3/{domain}/events` (the Events API reference, api-reference/send/mailgun/events): `ascending` must
 *   be given when no `end` is, `begin` in epoch seconds; without them this fake answers 400 (its own text);
 *   `message-id` is the id without angle brackets; `{items: [...], paging}`, one event per recipient per step
 *   (accepted, delivered, failed with severity permanent and delivery-status).
 * `slow` answers a send after 2 s; `garbled` answers 200 with a body that is not the send answer.
 */
import { type FakeReply, type SeenRequest, startVendorFake, type VendorFake } from "toolreg/test";

export const MAILGUN_DOMAIN = "mg.acme.example";
export const MAILGUN_KEY = "key-3ax6xnjp29jd6fds4gc373sgvjxteol0";
export const MAILGUN_MESSAGE_ID = "<20261206061500.1.ABCDEF@mg.acme.example>";

export type MailgunScenario =
  | "bad-address"
  | "forbidden"
  | "rate-limited"
  | "rate-limited-retry-after"
  | "server-error"
  | "slow"
  | "garbled";

const RATE_LIMITED = {
  message: `Domain ${MAILGUN_DOMAIN} is not allowed to send: account-requests-per-sec limit exceeded, try again after 120 seconds`,
};

function answer(request: SeenRequest, scenario: MailgunScenario | undefined): FakeReply {
  const basic = `Basic ${Buffer.from(`api:${MAILGUN_KEY}`).toString("base64")}`;
  if (request.headers.authorization !== basic) {
    return { status: 401, headers: { "content-type": "text/plain; charset=utf-8" }, body: "Forbidden" };
  }
  if (request.method === "POST" && request.path === `/v3/${MAILGUN_DOMAIN}/messages.mime`) {
    switch (scenario) {
      case "bad-address":
        return {
          status: 400,
          body: { message: "'to' parameter is not a valid address. please check documentation" },
        };
      case "rate-limited":
        return { status: 429, body: RATE_LIMITED };
      case "rate-limited-retry-after":
        return { status: 429, headers: { "retry-after": "7" }, body: RATE_LIMITED };
      case "forbidden":
        return { status: 403, body: { message: "Access denied for this domain" } };
      case "server-error":
        return { status: 500, body: { message: "Internal Server Error" } };
      case "slow":
        return {
          status: 200,
          body: { id: MAILGUN_MESSAGE_ID, message: "Queued. Thank you." },
          delayMs: 2_000,
        };
      case "garbled":
        return { status: 200, headers: { "content-type": "text/html" }, body: "<html>OK</html>" };
    }
    if (!/name="to"/.test(request.body))
      return { status: 400, body: { message: "'to' parameter is missing" } };
    if (!/name="message"; filename=/.test(request.body)) {
      return { status: 400, body: { message: "'message' parameter is missing" } };
    }
    return { status: 200, body: { id: MAILGUN_MESSAGE_ID, message: "Queued. Thank you." } };
  }
  if (request.method === "GET" && request.path === `/v3/${MAILGUN_DOMAIN}/events`) {
    const { begin, end, ascending } = request.query;
    if (
      !/^\d{9,11}$/.test(String(begin)) ||
      (end === undefined && !["yes", "no"].includes(String(ascending)))
    ) {
      return { status: 400, body: { message: "begin (epoch seconds) and ascending or end are required" } };
    }
    const id = MAILGUN_MESSAGE_ID.slice(1, -1);
    const items =
      request.query["message-id"] === id
        ? [
            {
              event: "accepted",
              id: "e1",
              timestamp: 1796537700.1,
              "log-level": "info",
              recipient: "ann@example.com",
            },
            {
              event: "accepted",
              id: "e2",
              timestamp: 1796537700.2,
              "log-level": "info",
              recipient: "nobody@example.org",
            },
            {
              event: "delivered",
              id: "e3",
              timestamp: 1796537702.5,
              "log-level": "info",
              recipient: "ann@example.com",
              "delivery-status": { code: 250, message: "OK", description: "" },
            },
            {
              event: "failed",
              id: "e4",
              timestamp: 1796537703.5,
              "log-level": "error",
              severity: "permanent",
              reason: "bounce",
              recipient: "nobody@example.org",
              "delivery-status": {
                code: 550,
                message: "5.1.1 The email account that you tried to reach does not exist",
                description: "",
              },
            },
          ]
        : [];
    return {
      status: 200,
      body: { items, paging: { next: `http://mailgun.test/v3/${MAILGUN_DOMAIN}/events/W3siY` } },
    };
  }
  return { status: 404, body: { message: "Not Found" } };
}

export function startMailgunFake(): Promise<VendorFake<MailgunScenario>> {
  return startVendorFake(answer);
}
