import { describe, expect, it } from "vitest";
import type { CreateKeyInput } from "../../ports/auth-store.js";
import { checkKeyInput } from "./key-input.js";

const valid: CreateKeyInput = { tenantId: "acme", principalId: "agent:support-bot" };

describe("checkKeyInput", () => {
  it("fills in defaults: no scopes, active, not an operator, no label", () => {
    expect(checkKeyInput(valid)).toEqual({
      tenantId: "acme",
      principalId: "agent:support-bot",
      scopes: [],
      mode: "active",
      operator: false,
      label: undefined,
    });
  });

  it("keeps valid scopes once each, in order", () => {
    const scopes = ["mail:send", "crm.read", "files_write", "a-b", "mail:send"];
    expect(checkKeyInput({ ...valid, scopes }).scopes).toEqual([
      "mail:send",
      "crm.read",
      "files_write",
      "a-b",
    ]);
  });

  it.each([
    ["tenantId", { tenantId: "" }],
    ["tenantId", { tenantId: "-leading-dash" }],
    ["tenantId", { tenantId: "has space" }],
    ["principalId", { principalId: "x".repeat(201) }],
    ["principalId", { principalId: 7 }],
    ["scopes", { scopes: "mail:send" }],
    ["scopes", { scopes: [""] }],
    ["scopes", { scopes: ["mail send"] }],
    ["scopes", { scopes: ["x".repeat(65)] }],
    ["scopes", { scopes: ["mail/send"] }],
    ["scopes", { scopes: [3] }],
    ["mode", { mode: "on" }],
    ["operator", { operator: "yes" }],
    ["label", { label: "x".repeat(201) }],
    ["label", { label: 5 }],
  ])("refuses a bad %s: %j", (field, change) => {
    expect(() => checkKeyInput({ ...valid, ...(change as Partial<CreateKeyInput>) })).toThrow(
      new RegExp(`^api key: ${field} `),
    );
  });
});
