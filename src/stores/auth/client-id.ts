/** @module The id of an OAuth client registered dynamically: 128 random bits as hex, public but unguessable. */
import { randomBytes } from "node:crypto";

const CLIENT_ID_SHAPE = /^[0-9a-f]{32}$/;

export const newClientId = (): string => randomBytes(16).toString("hex");

/** Whether a presented client id could be one `newClientId` made; anything else names no client. */
export const isClientId = (value: unknown): value is string =>
  typeof value === "string" && CLIENT_ID_SHAPE.test(value);
