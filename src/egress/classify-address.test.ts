import { describe, expect, it } from "vitest";
import { checkAddress } from "./address-policy.js";
import { type AddressClass, classifyAddress } from "./classify-address.js";

const CASES: readonly (readonly [string, AddressClass])[] = [
  ["8.8.8.8", "public"],
  ["1.1.1.1", "public"],
  ["2606:4700:4700::1111", "public"],
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["::1", "loopback"],
  ["10.0.0.1", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["fec0::1", "private"],
  ["169.254.1.1", "link-local"],
  ["fe80::1", "link-local"],
  ["100.64.0.1", "cgnat"],
  ["100.127.255.255", "cgnat"],
  ["fc00::1", "unique-local"],
  ["fd12:3456::1", "unique-local"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["ff02::1", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["::", "unspecified"],
  ["240.0.0.1", "reserved"],
  ["192.0.0.8", "reserved"],
  ["198.18.0.1", "reserved"],
  ["100::1", "reserved"],
  ["2001::1", "reserved"], // Teredo
  ["64:ff9b:1::1", "reserved"],
  ["1:2::3", "reserved"], // outside 2000::/3
  ["192.0.2.1", "documentation"],
  ["198.51.100.7", "documentation"],
  ["203.0.113.9", "documentation"],
  ["2001:db8::1", "documentation"],
  ["3fff::1", "documentation"],
  ["169.254.169.254", "metadata"],
  ["169.254.170.2", "metadata"],
  ["168.63.129.16", "metadata"],
  ["100.100.100.200", "metadata"],
  ["fd00:ec2::254", "metadata"],
];

/** IPv6 forms that carry an IPv4 address: what counts is the IPv4 inside. */
const EMBEDDED: readonly (readonly [string, AddressClass, string, string])[] = [
  ["::ffff:127.0.0.1", "loopback", "ipv4-mapped", "127.0.0.1"],
  ["::ffff:7f00:1", "loopback", "ipv4-mapped", "127.0.0.1"],
  ["::ffff:a9fe:a9fe", "metadata", "ipv4-mapped", "169.254.169.254"],
  ["::ffff:8.8.8.8", "public", "ipv4-mapped", "8.8.8.8"],
  ["::ffff:0:10.0.0.1", "private", "ipv4-translated", "10.0.0.1"],
  ["::127.0.0.1", "loopback", "ipv4-compatible", "127.0.0.1"],
  ["::a00:1", "private", "ipv4-compatible", "10.0.0.1"],
  ["64:ff9b::10.0.0.1", "private", "nat64", "10.0.0.1"],
  ["64:ff9b::a9fe:a9fe", "metadata", "nat64", "169.254.169.254"],
  ["64:ff9b::808:808", "public", "nat64", "8.8.8.8"],
  ["2002:7f00:1::", "loopback", "6to4", "127.0.0.1"],
  ["2002:c0a8:101::1", "private", "6to4", "192.168.1.1"],
  ["2002:6440:1::", "cgnat", "6to4", "100.64.0.1"],
];

describe("classifyAddress", () => {
  it.each(CASES)("%s is %s", (address, expected) => {
    expect(classifyAddress(address).class).toBe(expected);
  });

  it.each(EMBEDDED)("%s is %s, by the embedded IPv4 (%s %s)", (address, expected, form, ipv4) => {
    expect(classifyAddress(address)).toMatchObject({ class: expected, embedded: { form, address: ipv4 } });
  });

  it("accepts URL brackets and refuses what is not an address", () => {
    expect(classifyAddress("[::1]")).toEqual({ address: "::1", class: "loopback" });
    expect(() => classifyAddress("localhost")).toThrow(TypeError);
  });
});

describe("checkAddress", () => {
  const publicOnly = { allowAddressClasses: ["public"] as AddressClass[], allowCidrs: [] };

  it("allows only the listed classes", () => {
    expect(checkAddress("8.8.8.8", publicOnly).allowed).toBe(true);
    expect(checkAddress("127.0.0.1", publicOnly).allowed).toBe(false);
    expect(checkAddress("127.0.0.1", { ...publicOnly, allowAddressClasses: ["loopback"] }).allowed).toBe(
      true,
    );
  });

  it("allows a listed CIDR, in IPv4 and in its IPv6 forms, but never opens metadata through a CIDR", () => {
    const rules = { ...publicOnly, allowCidrs: ["127.0.0.1/32", "169.254.0.0/16"] };
    expect(checkAddress("127.0.0.1", rules).allowed).toBe(true);
    expect(checkAddress("::ffff:127.0.0.1", rules).allowed).toBe(true);
    expect(checkAddress("127.0.0.2", rules).allowed).toBe(false);
    expect(checkAddress("169.254.1.1", rules).allowed).toBe(true);
    expect(checkAddress("169.254.169.254", rules).allowed).toBe(false);
    expect(checkAddress("169.254.169.254", { ...rules, allowAddressClasses: ["metadata"] }).allowed).toBe(
      true,
    );
  });
});
