import { describe, expect, it } from "vitest";
import { readArguments } from "./read-arguments.js";

const refused = (message: unknown) => ({
  ok: false,
  envelope: { ok: false, error: { code: "invalid_input", message, retryable: false } },
});

describe("readArguments", () => {
  it("takes an object as it is and parses JSON text", () => {
    const input = { expression: "1+1" };
    expect(readArguments("calculate", input)).toEqual({ ok: true, input });
    expect(readArguments("calculate", '{"expression": "1+1"}')).toEqual({ ok: true, input });
  });

  it("reads missing, null and blank arguments as none", () => {
    for (const raw of [undefined, null, "", "  \n", "null"]) {
      expect(readArguments("now", raw)).toEqual({ ok: true, input: {} });
    }
  });

  it("says where JSON text broke and asks for an object", () => {
    // Newer V8 adds the line and column after the position.
    expect(readArguments("calculate", '{"expression": "1+1"')).toEqual(
      refused(
        expect.stringMatching(
          /^the arguments for calculate are not valid JSON \(Expected ',' or '}' after property value in JSON at position 20\b.*\); send them again as one JSON object, e\.g\. \{"name": "value"\}$/,
        ),
      ),
    );
  });

  it("refuses arguments that are not an object, naming what they are", () => {
    const ask = 'send them again as one JSON object, e.g. {"name": "value"}';
    expect(readArguments("calculate", [1, 2])).toEqual(
      refused(`the arguments for calculate are an array, not a JSON object; ${ask}`),
    );
    expect(readArguments("calculate", "42")).toEqual(
      refused(`the arguments for calculate are a number, not a JSON object; ${ask}`),
    );
    // Doubly encoded JSON is a string once parsed: the model hears so rather than being second-guessed.
    expect(readArguments("calculate", JSON.stringify('{"expression":"1"}'))).toEqual(
      refused(`the arguments for calculate are a string, not a JSON object; ${ask}`),
    );
    expect(readArguments("calculate", true)).toEqual(
      refused(`the arguments for calculate are a boolean, not a JSON object; ${ask}`),
    );
  });

  it("keeps a hostile name and JSON error short", () => {
    const result = readArguments("x".repeat(10_000), `{${"y".repeat(10_000)}`);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.envelope.error.message.length).toBeLessThan(450);
  });
});
