/** @module The memory attachment store against the attachment store conformance suite (no stored bytes apart from the records). */
import {
  CONFORMANCE_CAPS,
  runAttachmentStoreConformance,
} from "../../../test/conformance/attachment-store.js";
import { createMemoryAttachmentStore } from "./attachments.js";

runAttachmentStoreConformance("memory", async () => ({
  store: createMemoryAttachmentStore({ caps: CONFORMANCE_CAPS }),
  cleanup: async () => {},
}));
