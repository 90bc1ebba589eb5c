import { describe, expect, it } from "vitest";
import { isLoopbackAddress, rebindingRefusal } from "./rebinding-refusal.js";

const headers = (host: string | undefined, origin?: string) =>
  new Headers({ ...(host === undefined ? {} : { host }), ...(origin === undefined ? {} : { origin }) });

describe("rebindingRefusal", () => {
  it("lets a loopback request name a loopback host, with any port, and its own origin", () => {
    for (const host of ["localhost", "127.0.0.1:7423", "[::1]:7423", "LOCALHOST:1"]) {
      expect(rebindingRefusal(headers(host), true)).toBeUndefined();
    }
    expect(rebindingRefusal(headers("127.0.0.1:7423", "http://127.0.0.1:7423"), true)).toBeUndefined();
  });

  it("refuses a loopback request naming another host: a rebound name", () => {
    expect(rebindingRefusal(headers("evil.example.com"), true)).toMatch(/loopback host/);
    expect(rebindingRefusal(headers("evil.example.com:7423", "http://evil.example.com:7423"), true)).toMatch(
      /loopback host/,
    );
    expect(rebindingRefusal(headers(undefined), true)).toMatch(/loopback host/);
  });

  it("takes any host from elsewhere (a deployment's own name) but no page from another origin", () => {
    expect(rebindingRefusal(headers("toolreg.example.com"), false)).toBeUndefined();
    expect(
      rebindingRefusal(headers("toolreg.example.com", "https://toolreg.example.com"), false),
    ).toBeUndefined();
    expect(rebindingRefusal(headers("toolreg.example.com", "https://evil.example.com"), false)).toMatch(
      /another origin/,
    );
    expect(rebindingRefusal(headers("127.0.0.1:7423", "http://localhost:6274"), true)).toMatch(
      /another origin/,
    );
    expect(rebindingRefusal(headers("127.0.0.1:7423", "null"), true)).toMatch(/another origin/);
  });
});

describe("isLoopbackAddress", () => {
  it("knows IPv4, IPv6 and mapped loopback from anything else", () => {
    expect(["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"].map(isLoopbackAddress)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(["10.0.0.1", "::ffff:10.0.0.1", "fe80::1", undefined].map(isLoopbackAddress)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });
});
