/** @module What the browser tools run against once bound: the host's sessions, and where files are kept. */
import { type ArtifactStore, toolFor } from "toolreg/toolkit";
import type { BrowserSessions } from "./browser-sessions.js";

export interface BrowserEnv {
  sessions: BrowserSessions;
  /** Screenshots and downloads are kept here; without it there are no screenshots and downloads are refused. */
  artifacts: ArtifactStore | undefined;
}

/** Declares a browser tool: its `run` receives the bound BrowserEnv. */
export const browserTool = toolFor<BrowserEnv>();
