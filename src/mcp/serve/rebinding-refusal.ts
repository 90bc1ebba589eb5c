/**
 * @module DNS-rebinding protection for the MCP endpoint. A page on a name its attacker controls can point
 * that name at 127.0.0.1 and have a browser on this machine reach a loopback server as if it were the
 * page's own origin; the request still says which name it was sent to (Host) and from which page (Origin).
 */

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Whether a peer address is this machine's loopback (IPv4, IPv6, or IPv4 mapped into IPv6). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return address === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * Why a request must be refused, or undefined when it may go on. A request that came over loopback must
 * name a loopback host (localhost, 127.0.0.1 or [::1], any port): no one reaches this machine's loopback
 * under another name but through a proxy, which then sends the upstream's name, or a rebound one. An
 * Origin, when a browser sends one, must be the request's own host or one the operator listed (CORS): a
 * page elsewhere gets no MCP.
 */
export function rebindingRefusal(
  headers: Headers,
  fromLoopback: boolean,
  listedOrigins: ReadonlySet<string> = new Set(),
): string | undefined {
  const host = headers.get("host");
  if (fromLoopback && (host === null || !LOOPBACK_NAMES.has(hostnameOf(host) ?? ""))) {
    return `a request over loopback must name a loopback host, not ${JSON.stringify(host?.slice(0, 100) ?? null)}`;
  }
  const origin = headers.get("origin");
  if (origin !== null && !listedOrigins.has(origin) && (host === null || !sameHost(origin, host))) {
    return `requests from another origin (${JSON.stringify(origin.slice(0, 100))}) are refused`;
  }
  return undefined;
}

function hostnameOf(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/** Whether a page at `origin` is the host the request was sent to (read with the page's scheme's port). */
function sameHost(origin: string, host: string): boolean {
  try {
    const page = new URL(origin);
    return new URL(`${page.protocol}//${host}`).host === page.host;
  } catch {
    return false;
  }
}
