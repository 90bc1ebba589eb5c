/** @module What the finance tools run against once bound: the configured provider and the deployment's bound. */
import { toolFor } from "toolreg/toolkit";
import type { FinanceProvider } from "./finance-provider.js";

export interface FinanceEnv {
  provider: FinanceProvider;
  /** The most symbols one quote may ask for. */
  maxSymbols: number;
}

/** Declares a finance tool: its `run` receives the bound FinanceEnv. */
export const financeTool = toolFor<FinanceEnv>();
