import { createMemoryToolkitRecordStore } from "toolreg/test";
import { createToolkitHost, type ToolkitEgressRequest, type ToolkitHost } from "toolreg/toolkit";
import { describe, expect, it } from "vitest";
import { emailToolkit } from "./toolkit.js";

const FROM = { address: "assistant@mg.acme.example" };
const SMTP = { provider: "smtp", from: FROM, smtp: { host: "smtp.acme.example", credentialRef: "relay" } };

describe("the e-mail toolkit as data", () => {
  it("declares four tools in communication; only email_send writes, gated, under the seam's key", () => {
    const tools = emailToolkit.declarations();
    expect(tools.map((tool) => tool.name)).toEqual([
      "email_compose_preview",
      "email_send",
      "email_get_status",
      "email_list_sent",
    ]);
    for (const tool of tools) {
      const writes = tool.name === "email_send";
      expect(tool.category).toBe("communication");
      expect(tool.effect, tool.name).toBe(writes ? "external-write" : "read");
      expect(tool.approval, tool.name).toBe(writes ? "always" : "never");
      expect(tool.idempotencyKey, tool.name).toBe(writes);
      // Neither SMTP nor Mailgun deduplicates on a key: a lost outcome is `unknown`, never re-sent.
      expect(tool.upstreamDeduplicates).toBe(false);
      expect(tool.overrides).toEqual([]);
    }
  });

  it("triages email_send as directed, its one outward write, and takes an API key with no per-user identity", () => {
    expect(emailToolkit.triage?.publishing ?? []).toEqual([]);
    expect(emailToolkit.triage?.directed?.map((row) => row.tool)).toEqual(["email_send"]);
    expect(emailToolkit.triage?.directed?.[0]?.why).toMatch(/twenty/);
    expect(emailToolkit.auth).toEqual({ kind: "api-key", header: "authorization" });
  });
});

describe("the e-mail toolkit's configuration", () => {
  it("defaults SMTP to 587 with STARTTLS required, 465 to implicit TLS, Mailgun to the US region", () => {
    expect(emailToolkit.parseConfig(SMTP)).toMatchObject({ smtp: { port: 587, secure: "starttls" } });
    expect(
      emailToolkit.parseConfig({ ...SMTP, smtp: { host: "smtp.acme.example", port: 465 } }),
    ).toMatchObject({
      smtp: { secure: "tls" },
    });
    expect(
      emailToolkit.parseConfig({ provider: "mailgun", from: FROM, mailgun: { domain: "mg.acme.example" } }),
    ).toMatchObject({ mailgun: { region: "us", credentialRef: "mailgun" } });
  });

  it("names each bad field: a From outside Mailgun's domain, a password typed in, an unknown provider", () => {
    expect(() =>
      emailToolkit.parseConfig({
        provider: "mailgun",
        from: { address: "x@other.example" },
        mailgun: { domain: "mg.acme.example" },
      }),
    ).toThrow(/from\.address: the From address must be on the sending domain/);
    expect(() =>
      emailToolkit.parseConfig({ ...SMTP, smtp: { host: "smtp.acme.example", password: "x" } }),
    ).toThrow(/password/);
    expect(() => emailToolkit.parseConfig({ ...SMTP, provider: "sendgrid" })).toThrow();
    expect(() => emailToolkit.parseConfig({ ...SMTP, smtp: { host: "smtp.acme.example/x" } })).toThrow(
      /smtp\.host/,
    );
  });
});

describe("binding", () => {
  const spying = (host: ToolkitHost, asked: ToolkitEgressRequest[]): ToolkitHost => ({
    ...host,
    egress(request = {}) {
      asked.push(request);
      return host.egress(request);
    },
  });

  it("serves no tool where no record store is lent", async () => {
    const host = createToolkitHost();
    expect(await emailToolkit.build(SMTP, host)).toEqual([]);
    await host.close();
  });

  it("reaches the relay's host alone, and Mailgun's region host with the key as HTTP Basic there", async () => {
    const host = createToolkitHost({ records: createMemoryToolkitRecordStore() });
    const asked: ToolkitEgressRequest[] = [];
    expect(await emailToolkit.build(SMTP, spying(host, asked))).toHaveLength(4);
    await emailToolkit.build(
      { provider: "mailgun", from: FROM, mailgun: { domain: "mg.acme.example", region: "eu" } },
      spying(host, asked),
    );
    await host.close();
    expect(asked[0]).toEqual({ hosts: ["smtp.acme.example"] });
    expect(asked[1]).toMatchObject({
      hosts: ["api.eu.mailgun.net"],
      credential: { header: "authorization", credentialRef: "mailgun", exchange: expect.any(Object) },
    });
    expect(asked[1]?.credential?.scheme).toBeUndefined();
  });
});
