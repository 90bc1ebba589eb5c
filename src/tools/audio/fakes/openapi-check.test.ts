/** @module The OpenAPI check the fake relies on can fail: wrong shapes are named, documented ones pass. */
import { describe, expect, it } from "vitest";
import { openApiProblems } from "./openapi-check.js";

describe("openApiProblems", () => {
  it("passes OpenAI's documented shapes", () => {
    expect(
      openApiProblems("CreateSpeechRequest", {
        model: "tts-1",
        input: "hi",
        voice: "alloy",
        response_format: "wav",
      }),
    ).toEqual([]);
    expect(openApiProblems("CreateTranscriptionResponseJson", { text: "hello" })).toEqual([]);
    expect(
      openApiProblems("ErrorResponse", { error: { message: "m", type: "t", param: null, code: null } }),
    ).toEqual([]);
  });

  it("names what breaks them", () => {
    expect(
      openApiProblems("CreateSpeechRequest", {
        model: "tts-1",
        input: "hi",
        voice: "alloy",
        response_format: "ogg",
      }),
    ).not.toEqual([]);
    expect(
      openApiProblems("CreateSpeechRequest", { model: "tts-1", input: "a".repeat(4097), voice: "alloy" }),
    ).not.toEqual([]);
    expect(
      openApiProblems("CreateSpeechRequest", { model: "tts-1", input: "hi", voice: "alloy", volume: 11 }),
    ).not.toEqual([]);
    expect(openApiProblems("CreateTranscriptionResponseJson", { transcript: "moved" })).not.toEqual([]);
    expect(openApiProblems("ErrorResponse", { error: { message: "m" } })).not.toEqual([]);
  });
});
