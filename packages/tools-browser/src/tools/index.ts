/** @module The browser tools in the order a catalogue lists them. */
import { browserClick } from "./browser-click.js";
import { browserClose } from "./browser-close.js";
import { browserNavigate } from "./browser-navigate.js";
import { browserRead } from "./browser-read.js";
import { browserScreenshot } from "./browser-screenshot.js";
import { browserType } from "./browser-type.js";

export const browserTools = [
  browserNavigate,
  browserRead,
  browserScreenshot,
  browserClick,
  browserType,
  browserClose,
];
