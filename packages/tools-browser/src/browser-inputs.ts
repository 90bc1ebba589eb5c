/** @module The fields the browser tools share, bounded: a session id, an element reference, a URL. */
import { z } from "zod";

export const sessionIdField = z
  .string()
  .regex(/^bs_[0-9a-f]{16}$/, "a session id as browser_navigate returned it, e.g. bs_0123456789abcdef")
  .describe("the session id browser_navigate returned");

export const referenceField = z
  .string()
  .regex(/^e[1-9][0-9]{0,6}$/, "an element reference from the last browser_read, e.g. e7")
  .describe("an element reference from the last browser_read, e.g. e7");

export const urlField = z
  .string()
  .max(2_048)
  .refine((value) => {
    try {
      return ["http:", "https:"].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, "an absolute http or https URL")
  .describe("an absolute http or https URL");
