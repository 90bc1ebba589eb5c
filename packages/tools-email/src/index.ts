/** @module @toolreg/tools-email — the e-mail toolkit; load it by name from toolreg.config.json or pass it to createToolreg. */

export { type EmailConfig, EmailConfigSchema } from "./email-config.js";
export { type ComposedMessage, composeMessage } from "./message/compose.js";
export { type EmailMessage, EmailMessageSchema, MAX_RECIPIENTS } from "./message/email-message.js";
export { emailToolkit } from "./toolkit.js";
