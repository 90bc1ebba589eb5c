/** @module The generate toolkit: files made from structured input, kept in an artifact store. */
import { z } from "zod";
import { createFileArtifactStore } from "../../artifacts/file-artifact-store.js";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { fileGenerateSpec } from "./file-generate.js";

export const generateToolkit = defineToolkit({
  id: "generate",
  version: "1.0.0",
  package: "toolreg",
  description:
    "Makes Markdown, CSV and PDF files from structured input and keeps them as downloadable artifacts.",
  config: z.strictObject({
    artifactsDir: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "the folder generated files are kept in" }),
  }),
  auth: { kind: "none" },
  tools: [fileGenerateSpec],
  bind: ({ artifactsDir }) =>
    artifactsDir === undefined ? undefined : { artifacts: createFileArtifactStore(artifactsDir) },
});
