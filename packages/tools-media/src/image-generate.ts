/** @module `image_generate`: an image from a prompt, made by the deployment's provider and kept as an artifact. */
import { z } from "zod";
import { generateAndKeep } from "./keep-generated.js";
import { mediaTool } from "./media-env.js";
import { aspectRatioField, promptField } from "./media-inputs.js";

export const imageGenerate = mediaTool({
  name: "image_generate",
  description:
    "Generates one image from a text prompt with the deployment's image model and keeps it as a downloadable artifact; returns the artifact's id and URI, its media type and size, never the image itself. Each call is billed by the provider. A prompt the provider's safety system refuses fails with invalid_input: change the prompt, do not repeat it.",
  category: "media",
  effect: "internal-write",
  approval: "policy",
  overrideReason:
    "each call spends the deployment's money at the image provider and sends the prompt to a third party; the operator's policy decides who may do that without asking",
  cost: "model",
  limits: { timeoutMs: 180_000 },
  input: z.object({ prompt: promptField, aspectRatio: aspectRatioField }),
  available: (env) => env.image !== undefined,
  run(request, context, env) {
    // available() guarantees a provider; a missing one here is a wiring bug, which the seam reports as internal.
    if (env.image === undefined) throw new Error("image_generate ran without an image provider");
    return generateAndKeep(env.image, request, context, env);
  },
});
