/**
 * @module A real SMTP server on 127.0.0.1 (nodemailer's smtp-server) that keeps the bytes of every message it
 * receives, with its envelope and login. Its refusals are RFC 5321 replies: 4yz transient, 5yz permanent
 * (§4.2.1), sent where a relay sends them — at RCPT TO for one recipient (`nobody@…` 550 5.1.1 mailbox
 * unavailable, `busy@…` 450 4.2.1 mailbox busy, RFC 3463's enhanced codes), after DATA for the whole message
 * (`next("defer")` 451 4.7.1, `next("reject")` 550 5.7.1) and at AUTH (535 5.7.8, RFC 4954 §6). `next("hang")`
 * keeps the whole message and never answers it, as a relay that dies after queueing would. With `tls` it
 * offers STARTTLS or speaks implicit TLS with a certificate for relay.test, signed by the test CA in tls/.
 */
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerSession } from "smtp-server";

export const SMTP_USER = "relay-user";
export const SMTP_PASSWORD = "s3cret:with-colon";

export type SmtpScenario = "defer" | "reject" | "hang";

const tlsFile = (name: string) => readFileSync(new URL(`./tls/${name}`, import.meta.url), "utf8");
/** The test CA (trusted only where a test says so) and relay.test's certificate it signed. */
export const TEST_CA = tlsFile("ca.pem");
const RELAY_TLS = { key: tlsFile("relay-key.pem"), cert: tlsFile("relay-cert.pem") };

export interface ReceivedMessage {
  from: string;
  to: string[];
  user: string | undefined;
  bytes: Buffer;
}

export interface SmtpFake {
  host: string;
  port: number;
  received: ReceivedMessage[];
  /** Every connection the server accepted. */
  connections: number;
  next(scenario: SmtpScenario): void;
  close(): Promise<void>;
}

const reply = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

export async function startSmtpFake(options: { tls?: "starttls" | "implicit" } = {}): Promise<SmtpFake> {
  const queued: SmtpScenario[] = [];
  const fake: SmtpFake = {
    host: "127.0.0.1",
    port: 0,
    received: [],
    connections: 0,
    next: (scenario) => queued.push(scenario),
    // A hung session holds its connection open: close() ends it too.
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    logger: false,
    banner: "relay.test ESMTP",
    // Plain text with a login, as a relay on the operator's own network may be; the test relay offers
    // STARTTLS only when asked, to see a client that requires it refuse one that does not.
    secure: options.tls === "implicit",
    ...(options.tls ? RELAY_TLS : { disabledCommands: ["STARTTLS"], hideSTARTTLS: true }),
    allowInsecureAuth: true,
    authOptional: false,
    onConnect(_session, callback) {
      fake.connections++;
      callback();
    },
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) {
        callback(null, { user: auth.username });
        return;
      }
      callback(reply(535, "5.7.8 Authentication credentials invalid"));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith("nobody@")) return callback(reply(550, "5.1.1 Mailbox unavailable"));
      if (address.address.startsWith("busy@"))
        return callback(reply(450, "4.2.1 Mailbox busy, try again later"));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const scenario = queued.shift();
        if (scenario === "hang") {
          fake.received.push(receivedOf(session, chunks));
          return;
        }
        if (scenario === "defer") return callback(reply(451, "4.7.1 Greylisted, try again in 5 minutes"));
        if (scenario === "reject") return callback(reply(550, "5.7.1 Message rejected as spam"));
        fake.received.push(receivedOf(session, chunks));
        callback(null, `2.0.0 Ok: queued as Q${fake.received.length}ABC`);
      });
    },
  });
  // A client refusing the certificate drops the handshake: the server reports it, and that is the test's point.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.port = (server.server.address() as AddressInfo).port;
  return fake;
}

function receivedOf(session: SMTPServerSession, chunks: Buffer[]): ReceivedMessage {
  return {
    from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
    to: session.envelope.rcptTo.map((entry) => entry.address),
    user: typeof session.user === "string" ? session.user : undefined,
    bytes: Buffer.concat(chunks),
  };
}
