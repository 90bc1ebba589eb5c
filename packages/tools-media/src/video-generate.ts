/** @module `video_generate`: a short video from a prompt, made by the deployment's provider and kept as an artifact. */
import { z } from "zod";
import { generateAndKeep } from "./keep-generated.js";
import { mediaTool } from "./media-env.js";
import { aspectRatioField, promptField } from "./media-inputs.js";

export const videoGenerate = mediaTool({
  name: "video_generate",
  description:
    "Generates a short video clip (a few seconds) from a text prompt with the deployment's video model and keeps it as a downloadable artifact; returns the artifact's id and URI, media type and size, never the video itself. Takes minutes and is billed per clip. If it does not finish in time the error names the provider's generation id; calling again starts a new, separately billed generation.",
  category: "media",
  effect: "internal-write",
  approval: "always",
  overrideReason:
    "a video costs minutes of provider GPU time per call, billed to the deployment, so a person approves each one",
  cost: "model",
  limits: { timeoutMs: 900_000 },
  input: z.object({ prompt: promptField, aspectRatio: aspectRatioField }),
  available: (env) => env.video !== undefined,
  run(request, context, env) {
    if (env.video === undefined) throw new Error("video_generate ran without a video provider");
    return generateAndKeep(env.video, request, context, env);
  },
});
