/** @module Classifies an IP address into the classes the egress policy allows or refuses. */
import ipaddr from "ipaddr.js";

/** What an address is, as far as reaching it from a server is concerned. Only `public` is the open internet. */
export const ADDRESS_CLASSES = [
  "public",
  "loopback",
  "private",
  "link-local",
  "cgnat",
  "unique-local",
  "multicast",
  "broadcast",
  "unspecified",
  "reserved",
  "documentation",
  "metadata",
] as const;

export type AddressClass = (typeof ADDRESS_CLASSES)[number];

/** How an IPv4 address was carried inside an IPv6 one; each form reaches the IPv4 host it embeds. */
export type EmbeddingForm = "ipv4-mapped" | "ipv4-compatible" | "ipv4-translated" | "nat64" | "6to4";

export interface AddressClassification {
  /** The address in canonical form (IPv6 compressed, no brackets). */
  address: string;
  class: AddressClass;
  /** The IPv4 address an IPv6 form carries, which is what was classified. */
  embedded?: { form: EmbeddingForm; address: string };
}

type Table = readonly (readonly [AddressClass, readonly string[]])[];

/**
 * Cloud instance-metadata endpoints hand out credentials to whoever asks from inside the instance. They
 * get their own class so allowing `link-local`, `cgnat` or a broad CIDR never opens them by accident.
 */
const METADATA: readonly string[] = [
  "169.254.169.254/32", // AWS, GCP, Azure, OpenStack, DigitalOcean …
  "169.254.170.2/32", // AWS ECS task metadata
  "168.63.129.16/32", // Azure wire server: a public-looking address that only the host answers
  "100.100.100.200/32", // Alibaba Cloud
  "fd00:ec2::254/128", // AWS over IPv6
];

// First match wins, so the narrow ranges come before the wide ones that contain them.
const IPV4: Table = [
  ["metadata", METADATA.filter((range) => !range.includes(":"))],
  ["unspecified", ["0.0.0.0/8"]], // "this network": 0.0.0.0 reaches localhost on Linux
  ["loopback", ["127.0.0.0/8"]],
  ["private", ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"]],
  ["link-local", ["169.254.0.0/16"]],
  ["cgnat", ["100.64.0.0/10"]],
  ["documentation", ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"]],
  ["broadcast", ["255.255.255.255/32"]],
  ["multicast", ["224.0.0.0/4"]],
  // IETF protocol assignments, 6to4 relay anycast, benchmarking, and the old class E.
  ["reserved", ["192.0.0.0/24", "192.88.99.0/24", "198.18.0.0/15", "240.0.0.0/4"]],
];

const IPV6: Table = [
  ["metadata", METADATA.filter((range) => range.includes(":"))],
  ["unspecified", ["::/128"]],
  ["loopback", ["::1/128"]],
  ["documentation", ["2001:db8::/32", "3fff::/20"]],
  ["link-local", ["fe80::/10"]],
  ["private", ["fec0::/10"]], // the deprecated site-local range: private in all but name
  ["unique-local", ["fc00::/7"]],
  ["multicast", ["ff00::/8"]],
  // Discard, IETF assignments (Teredo, whose IPv4 is obfuscated, among them), local-use NAT64, SRv6.
  ["reserved", ["100::/64", "2001::/23", "64:ff9b:1::/48", "5f00::/16"]],
];

/** IPv6 forms that carry an IPv4 address; the bits of the embedded address differ by form. */
const EMBEDDINGS: readonly { form: EmbeddingForm; range: string; offset: number }[] = [
  { form: "ipv4-mapped", range: "::ffff:0:0/96", offset: 12 },
  { form: "ipv4-translated", range: "::ffff:0:0:0/96", offset: 12 },
  { form: "nat64", range: "64:ff9b::/96", offset: 12 },
  { form: "6to4", range: "2002::/16", offset: 2 },
  { form: "ipv4-compatible", range: "::/96", offset: 12 },
];

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

const compile = (table: Table) =>
  table.map(([name, ranges]) => [name, ranges.map((range) => ipaddr.parseCIDR(range))] as const);
const IPV4_RANGES = compile(IPV4);
const IPV6_RANGES = compile(IPV6);
const EMBEDDING_RANGES = EMBEDDINGS.map((entry) => ({ ...entry, cidr: ipaddr.parseCIDR(entry.range) }));
const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");

/** True when `value` is an IPv4 or IPv6 address in a form ipaddr.js accepts (brackets allowed). */
export function isIpAddress(value: string): boolean {
  return ipaddr.isValid(stripBrackets(value));
}

/** Classifies an address. Throws a TypeError for something that is not an IP address. */
export function classifyAddress(value: string): AddressClassification {
  const parsed = parseAddress(value);
  if (parsed.kind() === "ipv4") {
    const v4 = parsed as ipaddr.IPv4;
    return { address: v4.toString(), class: classifyIpv4(v4) };
  }
  const v6 = parsed as ipaddr.IPv6;
  const address = v6.toString();
  const direct = firstMatch(v6, IPV6_RANGES);
  // `::` and `::1` sit inside the IPv4-compatible range but are IPv6's own unspecified and loopback.
  if (direct === "unspecified" || direct === "loopback" || direct === "metadata")
    return { address, class: direct };
  const embedded = embeddedIpv4(v6);
  if (embedded) {
    return {
      address,
      class: classifyIpv4(embedded.ipv4),
      embedded: { form: embedded.form, address: embedded.ipv4.toString() },
    };
  }
  if (direct) return { address, class: direct };
  // Outside 2000::/3 nothing is assigned for global unicast.
  return { address, class: v6.match(GLOBAL_UNICAST) ? "public" : "reserved" };
}

/** The IPv4 address an IPv6 address embeds, if it is one of the embedding forms. */
export function embeddedIpv4(address: ipaddr.IPv6): { form: EmbeddingForm; ipv4: ipaddr.IPv4 } | undefined {
  for (const { form, cidr, offset } of EMBEDDING_RANGES) {
    if (!address.match(cidr)) continue;
    const bytes = address.toByteArray().slice(offset, offset + 4);
    return { form, ipv4: new ipaddr.IPv4(bytes) };
  }
  return undefined;
}

/** Parses an address, accepting URL-style brackets around IPv6. */
export function parseAddress(value: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const bare = stripBrackets(value);
  if (!ipaddr.isValid(bare)) throw new TypeError(`"${value}" is not an IP address`);
  return ipaddr.parse(bare);
}

function classifyIpv4(address: ipaddr.IPv4): AddressClass {
  return firstMatch(address, IPV4_RANGES) ?? "public";
}

function firstMatch(
  address: ipaddr.IPv4 | ipaddr.IPv6,
  ranges: readonly (readonly [AddressClass, Cidr[]])[],
): AddressClass | undefined {
  for (const [name, cidrs] of ranges) {
    for (const cidr of cidrs) {
      if (address.kind() === cidr[0].kind() && address.match(cidr)) return name;
    }
  }
  return undefined;
}

/**
 * Drops URL brackets and rewrites a dotted IPv4 tail of an IPv6 address as two hex groups: ipaddr.js reads
 * `::a.b.c.d` as IPv4-mapped, while the address (and WHATWG URL) means IPv4-compatible.
 */
function stripBrackets(value: string): string {
  const bare = value.startsWith("[") && value.endsWith("]") ? value.slice(1, -1) : value;
  if (!bare.includes(":")) return bare;
  return bare.replace(/(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/, (match, a, b, c, d) => {
    const octets = [a, b, c, d].map(Number);
    if (octets.some((octet) => octet > 255)) return match;
    const group = (high: number, low: number) => ((high << 8) | low).toString(16);
    return `${group(octets[0]!, octets[1]!)}:${group(octets[2]!, octets[3]!)}`;
  });
}
