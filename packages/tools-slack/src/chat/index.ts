/** @module The chat tools: post a message, reply in a thread. */
import { postMessage } from "./post-message.js";
import { replyInThread } from "./reply-in-thread.js";

export const chatTools = [postMessage, replyInThread];
