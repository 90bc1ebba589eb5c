/** @module The conversation tools: list the channels, read a channel's history. */
import { listChannels } from "./list-channels.js";
import { readHistory } from "./read-history.js";

export const conversationTools = [listChannels, readHistory];
