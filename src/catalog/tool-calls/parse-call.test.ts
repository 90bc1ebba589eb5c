import { describe, expect, it } from "vitest";
import { parseCall, type RawToolCall } from "./parse-call.js";

const raw = (fields: Partial<RawToolCall>): RawToolCall => ({
  provider: "openai-chat",
  index: 0,
  id: "call_1",
  idRequired: true,
  name: "calculate",
  arguments: '{"expression":"1+1"}',
  ...fields,
});

const invalidInput = (message: string) => ({
  ok: false,
  error: { code: "invalid_input", message, retryable: false },
});

describe("parseCall", () => {
  it("keeps the provider's id when it is an identifier", () => {
    expect(parseCall(raw({}))).toEqual({
      ok: true,
      id: "call_1",
      providerId: "call_1",
      name: "calculate",
      input: { expression: "1+1" },
    });
  });

  it("gives the seam a generated id for an id no context accepts, and still quotes the provider's back", () => {
    const call = parseCall(raw({ id: "call 1 / with spaces" }));
    expect(call).toMatchObject({ ok: true, providerId: "call 1 / with spaces" });
    expect(call.id).toMatch(/^openai-chat-0-[0-9a-f]{12}$/);
  });

  it("generates ids from position and content: the same call twice alike, another call apart", () => {
    const gemini = (index: number, args: unknown) =>
      parseCall(raw({ provider: "gemini", index, id: undefined, idRequired: false, arguments: args })).id;
    expect(gemini(0, { expression: "1+1" })).toBe(gemini(0, { expression: "1+1" }));
    expect(gemini(0, { expression: "1+1" })).not.toBe(gemini(0, { expression: "2+2" }));
    expect(gemini(0, { expression: "1+1" })).not.toBe(gemini(1, { expression: "1+1" }));
    expect(gemini(3, { big: 1n })).toMatch(/^gemini-3-[0-9a-f]{12}$/);
  });

  it("refuses a call without a string name", () => {
    expect(parseCall(raw({ name: 42 }))).toEqual({
      ok: false,
      id: "call_1",
      providerId: "call_1",
      name: "",
      envelope: invalidInput(
        "this tool call has no name (it is a number); name the tool to call as a string",
      ),
    });
    expect(parseCall(raw({ name: undefined }))).toMatchObject({
      envelope: invalidInput("this tool call has no name (it is missing); name the tool to call as a string"),
    });
  });

  it("refuses a call whose result could not be matched to it, where the provider needs the id", () => {
    const call = parseCall(raw({ id: 7 }));
    expect(call).toMatchObject({
      ok: false,
      envelope: invalidInput(
        "this call to calculate has no id (it is a number), so its result could not be matched to it; it was not run",
      ),
    });
    expect(call).not.toHaveProperty("providerId");
    expect(parseCall(raw({ id: "" }))).toMatchObject({ ok: false });
    expect(parseCall(raw({ id: undefined, idRequired: false }))).toMatchObject({ ok: true });
  });
});
