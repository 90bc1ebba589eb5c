/** @module Ids for audit events and claims: unique across processes, ordered within one, and cheap to make. */
import { randomBytes } from "node:crypto";

// 64 random bits per process, then a counter: no entropy is drawn per id on the seam's hot path.
const processPrefix = randomBytes(8).toString("hex");
let counter = 0;

export function newEventId(): string {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  return `${processPrefix}-${counter.toString(36)}`;
}
