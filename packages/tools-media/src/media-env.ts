/** @module What the media tools run against once bound: the providers the deployment chose, and where results are kept. */
import { type ArtifactStore, toolFor } from "toolreg/toolkit";
import type { MediaProvider } from "./media-provider.js";

export interface MediaEnv {
  /** The host's artifact store: a generated file is kept there and returned by address, never inlined. */
  artifacts: ArtifactStore;
  image?: MediaProvider | undefined;
  video?: MediaProvider | undefined;
}

/** Declares a media tool: its `run` receives the bound MediaEnv. */
export const mediaTool = toolFor<MediaEnv>();
