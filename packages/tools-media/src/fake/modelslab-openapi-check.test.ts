/** @module The OpenAPI check the ModelsLab fake relies on can fail: wrong shapes are named, documented ones pass. */
import { describe, expect, it } from "vitest";
import { modelsLabProblems } from "./modelslab-openapi-check.js";

describe("modelsLabProblems", () => {
  it("passes ModelsLab's documented shapes", () => {
    expect(
      modelsLabProblems("FluxTextToImageRequest", { key: "k", model_id: "flux", prompt: "p", width: 1024 }),
    ).toEqual([]);
    expect(modelsLabProblems("FetchQueuedImagesRequest", { key: "k", request_id: "42" })).toEqual([]);
    expect(
      modelsLabProblems("ImageGenerationSuccessResponse", {
        status: "success",
        id: 42,
        output: ["https://x/y.png"],
      }),
    ).toEqual([]);
    expect(
      modelsLabProblems("ImageGenerationErrorResponse", { status: "error", message: "Invalid API key" }),
    ).toEqual([]);
  });

  it("names what breaks them", () => {
    expect(modelsLabProblems("FluxTextToImageRequest", { model_id: "flux", prompt: "p" })).not.toEqual([]);
    expect(
      modelsLabProblems("FluxTextToImageRequest", { key: "k", model_id: "flux", prompt: "p", width: 2048 }),
    ).not.toEqual([]);
    expect(
      modelsLabProblems("FluxTextToImageRequest", {
        key: "k",
        model_id: "flux",
        prompt: "p",
        aspect_ratio: "1:1",
      }),
    ).not.toEqual([]);
    expect(modelsLabProblems("FetchQueuedImagesRequest", { key: "k", request_id: 42 })).not.toEqual([]);
    expect(modelsLabProblems("ImageGenerationProcessingResponse", { status: "queued" })).not.toEqual([]);
    expect(modelsLabProblems("ImageGenerationErrorResponse", { status: "error" })).not.toEqual([]);
  });
});
