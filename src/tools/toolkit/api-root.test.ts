import { describe, expect, it } from "vitest";
import { apiRootUrl } from "./api-root.js";

describe("apiRootUrl", () => {
  it("takes an http(s) root, with or without a path", () => {
    for (const root of [
      "https://api.example.com",
      "http://127.0.0.1:8080/v1/",
      "https://proxy.example/openai",
    ]) {
      expect(apiRootUrl().parse(root)).toBe(root);
    }
  });

  it("refuses a root carrying a credential, a query or a fragment, naming what goes where", () => {
    for (const root of [
      "https://user:secret@api.example.com",
      "https://api.example.com/?key=secret",
      "https://api.example.com/#part",
    ]) {
      const result = apiRootUrl({ what: "the site URL" }).safeParse(root);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(
        "the site URL without a query, a fragment or credentials (a credential goes in credentialRef)",
      );
    }
  });

  it("refuses other schemes, and http when the root must be https", () => {
    expect(apiRootUrl().safeParse("ftp://files.example.com").success).toBe(false);
    expect(apiRootUrl().safeParse("file:///etc/passwd").success).toBe(false);
    const plain = apiRootUrl({ what: "the site URL", httpsOnly: true }).safeParse(
      "http://acme.atlassian.net",
    );
    expect(plain.error?.issues[0]?.message).toBe(
      "the site URL over https only: its requests carry a credential",
    );
    expect(apiRootUrl({ httpsOnly: true }).safeParse("https://acme.atlassian.net").success).toBe(true);
  });
});
