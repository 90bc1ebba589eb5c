/** @module toolreg/host — the library's front door: toolkits and tools in, call, render, find and approvals out. */
export {
  type Caller,
  createToolreg,
  type ToolkitUse,
  type Toolreg,
  type ToolregOptions,
} from "./create-toolreg.js";
