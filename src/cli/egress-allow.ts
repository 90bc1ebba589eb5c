/**
 * @module What an operator lets egress reach beyond the default public addresses, given as a list of
 * address classes and CIDRs: by `--egress-allow` for the built-in web tools, by `egressAllow` in an
 * `--mcp-config` entry for an imported HTTP server.
 */
import { ADDRESS_CLASSES, type AddressClass } from "../egress/classify-address.js";
import { DEFAULT_EGRESS_POLICY } from "../egress/egress-policy.js";

/** The address rules the entries make; `refuse` words the error for an entry that is neither. */
export function egressAllowing(
  entries: readonly string[],
  refuse: (entry: string) => Error,
): { allowAddressClasses: AddressClass[]; allowCidrs: string[] } {
  const allowAddressClasses = [...DEFAULT_EGRESS_POLICY.allowAddressClasses];
  const allowCidrs: string[] = [];
  for (const entry of entries) {
    if ((ADDRESS_CLASSES as readonly string[]).includes(entry))
      allowAddressClasses.push(entry as AddressClass);
    else if (entry.includes("/")) allowCidrs.push(entry);
    else throw refuse(entry);
  }
  return { allowAddressClasses, allowCidrs };
}
