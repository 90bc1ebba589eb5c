/** @module How the tools name a message's envelope and its outcome, in the same words each time. */
export function envelopeLines(
  from: string,
  recipients: { to: string[]; cc: string[]; bcc: string[] },
): string[] {
  return [
    `From: ${from}`,
    `To: ${recipients.to.join(", ")}`,
    ...(recipients.cc.length > 0 ? [`Cc: ${recipients.cc.join(", ")}`] : []),
    ...(recipients.bcc.length > 0 ? [`Bcc (envelope only): ${recipients.bcc.join(", ")}`] : []),
  ];
}
