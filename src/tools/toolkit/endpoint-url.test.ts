import { describe, expect, it } from "vitest";
import { endpointUrl } from "./vendor-http.js";

describe("endpointUrl", () => {
  it("joins a path below a base that has a path of its own, without doubling the slash", () => {
    expect(endpointUrl("https://proxy.example/searx/", "/search")).toBe("https://proxy.example/searx/search");
    expect(endpointUrl("https://api.example.com", "/v1/items")).toBe("https://api.example.com/v1/items");
  });

  it("adds the query's parameters encoded, and leaves out those without a value", () => {
    const url = endpointUrl("https://api.example.com/", "/api/v1/equity/price/quote", {
      symbol: "BRK.B&x=1",
      provider: undefined,
      note: "a b",
    });
    expect(url).toBe("https://api.example.com/api/v1/equity/price/quote?symbol=BRK.B%26x%3D1&note=a+b");
    expect(new URL(url).searchParams.get("symbol")).toBe("BRK.B&x=1");
  });
});
