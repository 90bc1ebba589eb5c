/**
 * @module A local Mailgun. What it reproduces, from Mailgun's OpenAPI description (as its MCP server ships
 * it, paths /v3/{domain_name}/messages.mime and /v3/{domain_name}/events) and its response-codes page
 * (documentation.mailgun.com/docs/mailgun/quickstart-guide/responses):
 * - `POST /v3/{domain}/messages.mime`, multipart/form-data with `to` and the `message` file, HTTP Basic
 *   `api:KEY`: 200 `{"id": "<…@domain>", "message": "Queued. Thank you."}`;
 * - a wrong key: 401 with the text body `Forbidden`;
 * - 400 `{"message": "'to' parameter is not a valid address. please check documentation"}`;
 * - 429 `{"message": "Domain … is not allowed to send: account-requests-per-sec limit exceeded, try again
 *   after 120 seconds"}`, with and without Retry-After;
 * - 500 `{"message": "Internal Server Error"}`;
 * - `GET /v3/{domain}/events?message-id=` (the id without angle brackets): `{items: [...], paging}`, one
 *   event per recipient per step (accepted, delivered, failed with severity permanent and delivery-status).
 */
import { type FakeReply, type SeenRequest, startVendorFake, type VendorFake } from "toolreg/test";

export const MAILGUN_DOMAIN = "mg.acme.example";
export const MAILGUN_KEY = "key-3ax6xnjp29jd6fds4gc373sgvjxteol0";
export const MAILGUN_MESSAGE_ID = "<20261206061500.1.ABCDEF@mg.acme.example>";

export type MailgunScenario = "bad-address" | "rate-limited" | "rate-limited-retry-after" | "server-error";

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
      case "server-error":
        return { status: 500, body: { message: "Internal Server Error" } };
    }
    if (!/name="to"/.test(request.body))
      return { status: 400, body: { message: "'to' parameter is missing" } };
    if (!/name="message"; filename=/.test(request.body)) {
      return { status: 400, body: { message: "'message' parameter is missing" } };
    }
    return { status: 200, body: { id: MAILGUN_MESSAGE_ID, message: "Queued. Thank you." } };
  }
  if (request.method === "GET" && request.path === `/v3/${MAILGUN_DOMAIN}/events`) {
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
