/**
 * @module The host a signed log download points at, for the GitHub fake's tests: a real HTTP server on
 * 127.0.0.1 (another port than the API's) serving text by path. Like Azure Blob Storage ("Specify the
 * range header for Blob service operations"), it answers `Range: bytes=A-` and `bytes=A-B` with 206 and
 * Content-Range, 416 past the end, and ignores a suffix range `bytes=-N` (not a documented form: the whole
 * text, 200), unless told to serve suffixes as RFC 9110 does or to ignore Range altogether. It refuses a
 * request that carries an Authorization header (a signed URL authorizes itself, so a token sent here is a
 * leak) and, when told the signature expired, answers 403 as Azure's storage does (AuthenticationFailed).
 * Every request is logged.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeBlobHost {
  /** Its origin, http://127.0.0.1:PORT. */
  url: string;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  /** Answer 200 with the whole text to a Range request, as a server without range support does. */
  ignoreRange: boolean;
  /** Serve a suffix range `bytes=-N` with 206, as RFC 9110 allows and Azure does not document. */
  suffixRanges: boolean;
  /** Say the total size as `*` in Content-Range, as a server that does not know it may. */
  unknownSize: boolean;
  /** Answer 403, as for a signed URL past its expiry. */
  expired: boolean;
  close(): Promise<void>;
}

const AUTHENTICATION_FAILED = `<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthenticationFailed</Code><Message>Server failed to authenticate the request. Make sure the value of Authorization header is formed correctly including the signature.</Message></Error>`;

/** Serves `read(path)` (undefined: 404) until closed. */
export async function startFakeBlobHost(read: (path: string) => string | undefined): Promise<FakeBlobHost> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://blob").pathname;
    host.requests.push({ path, headers: request.headers });
    if (request.headers.authorization !== undefined || host.expired) {
      response.writeHead(403, { "content-type": "application/xml" }).end(AUTHENTICATION_FAILED);
      return;
    }
    const text = read(path);
    if (text === undefined) {
      response
        .writeHead(404, { "content-type": "application/xml" })
        .end("<Error><Code>BlobNotFound</Code></Error>");
      return;
    }
    const body = Buffer.from(text);
    const range = host.ignoreRange
      ? undefined
      : rangeOf(request.headers.range, body.length, host.suffixRanges);
    if (range === "unsatisfiable") {
      response.writeHead(416, { "content-range": `bytes */${body.length}` }).end();
      return;
    }
    if (range === undefined) {
      response.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(body);
      return;
    }
    const [start, end] = range;
    response
      .writeHead(206, {
        "content-type": "text/plain; charset=utf-8",
        "content-range": `bytes ${start}-${end}/${host.unknownSize ? "*" : body.length}`,
      })
      .end(body.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const host: FakeBlobHost = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    ignoreRange: false,
    suffixRanges: false,
    unknownSize: false,
    expired: false,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  return host;
}

/** One byte range: `A-B` or `A-`, and a suffix `-N` only when served; none for a header absent or unread. */
function rangeOf(
  header: string | undefined,
  size: number,
  suffixRanges: boolean,
): [number, number] | "unsatisfiable" | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  if (match[1] === "") {
    if (!suffixRanges) return undefined;
    const suffix = Number(match[2]);
    if (size === 0 || suffix === 0) return "unsatisfiable";
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(match[1]);
  if (start >= size) return "unsatisfiable";
  return [start, Math.min(size - 1, match[2] === "" ? size - 1 : Number(match[2]))];
}
