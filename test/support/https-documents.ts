/**
 * @module An HTTPS server on 127.0.0.1 that serves fixed documents by path, as a client's site serves its
 * OAuth client ID metadata document, counting each request. Its certificate (test/support/tls, made for
 * 127.0.0.1 and localhost, valid until 2126, its key a test's only) is trusted by an egress client given
 * `extraCertificates: [LOOPBACK_CERTIFICATE]`, and by nothing else.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";

const TLS_DIR = new URL("./tls/", import.meta.url);
export const LOOPBACK_CERTIFICATE = readFileSync(new URL("loopback-cert.pem", TLS_DIR), "utf8");

export interface ServedDocument {
  body: string;
  type?: string;
  status?: number;
}

export interface HttpsDocuments {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  documents: Map<string, ServedDocument>;
  /** Requests per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function serveHttpsDocuments(): Promise<HttpsDocuments> {
  const documents = new Map<string, ServedDocument>();
  const hits = new Map<string, number>();
  const server = createServer(
    { key: readFileSync(new URL("loopback-key.pem", TLS_DIR)), cert: LOOPBACK_CERTIFICATE },
    (request, response) => {
      const path = new URL(request.url ?? "/", "https://127.0.0.1").pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      const document = documents.get(path);
      if (!document) {
        response.writeHead(404).end();
        return;
      }
      response
        .writeHead(document.status ?? 200, { "content-type": document.type ?? "application/json" })
        .end(document.body);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    documents,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
