/**
 * @module Addresses as this toolkit takes them: an ASCII addr-spec (RFC 5321's dot-atom local part and a host
 * name), so what a model names is exactly what reaches the envelope and the headers, and a display name of
 * printable text on one line. Non-ASCII addresses (SMTPUTF8) are declined: not every relay takes them, and a
 * domain in Unicode has an ASCII (punycode) form that works everywhere.
 */
import { hasHiddenCharacters } from "toolreg/toolkit";
import { z } from "zod";

/** RFC 5322 atext, ASCII only. */
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
/** A host name of letter-digit-hyphen labels with a non-numeric top label; no address literals. */
const DOMAIN =
  /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

function isAddress(value: string): boolean {
  const at = value.lastIndexOf("@");
  if (at <= 0) return false;
  const local = value.slice(0, at);
  return local.length <= 64 && DOT_ATOM.test(local) && DOMAIN.test(value.slice(at + 1));
}

/** An e-mail address, lower-cased in its domain (a domain is case-insensitive, a local part may not be). */
export const emailAddress = z
  .string()
  .max(254, "an address is at most 254 characters (RFC 5321)")
  .refine(
    isAddress,
    "an ASCII address like name@example.com (no display name here, no spaces, a domain in its punycode form)",
  )
  .transform((value) => {
    const at = value.lastIndexOf("@");
    return `${value.slice(0, at)}@${value.slice(at + 1).toLowerCase()}`;
  });

/**
 * Text that would read as something else once in a header: an RFC 2047 encoded-word (`=?charset?Q?…?=`) is
 * written as typed and decoded by mail clients, so `=?UTF-8?Q?=0D=0ABcc:…?=` shows a line break; U+2028 and
 * U+2029 are line breaks to many readers. Non-ASCII text is encoded by the composer, never by the caller.
 */
export function headerTextProblem(value: string): string | undefined {
  if (/\p{Cc}/u.test(value) || hasHiddenCharacters(value)) return "control and invisible characters";
  if (/[\u2028\u2029]/.test(value)) return "line or paragraph separators (U+2028, U+2029)";
  if (/=\?[^?]*\?[^?]*\?[^?]*\?=/.test(value)) return "encoded-words (=?…?=): write the text itself";
  return undefined;
}

/** A display name: one line of visible text; it is encoded (RFC 2047) when it is not plain ASCII. */
export const displayName = z
  .string()
  .min(1)
  .max(100)
  .superRefine((value, issues) => {
    const problem = headerTextProblem(value);
    if (problem) issues.addIssue({ code: "custom", message: `${problem} are not allowed in a name` });
  })
  .refine((value) => value.trim().length > 0, "the name is blank");

export const MailboxSchema = z.strictObject({
  address: emailAddress,
  name: displayName.optional(),
});

export type Mailbox = z.output<typeof MailboxSchema>;

/** Whether `address` is in `domain` or one of its subdomains. */
export function inDomain(address: string, domain: string): boolean {
  const own = address.slice(address.lastIndexOf("@") + 1).toLowerCase();
  const wanted = domain.toLowerCase();
  return own === wanted || own.endsWith(`.${wanted}`);
}
