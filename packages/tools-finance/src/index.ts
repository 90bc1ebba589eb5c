/** @module @toolreg/tools-finance — the finance toolkit; load it by name from toolreg.config.json or pass it to createToolreg. */

export { type FinanceConfig, FinanceConfigSchema } from "./finance-config.js";
export type { FinanceProvider, ProviderName } from "./finance-provider.js";
export { FINANCE_PROVIDERS, financeToolkit } from "./toolkit.js";
