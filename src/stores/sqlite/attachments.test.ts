/**
 * @module The SQLite attachment store against the attachment store conformance suite, on a state file two
 * connections share and the files beside it.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type Database from "better-sqlite3";
import {
  CONFORMANCE_CAPS,
  runAttachmentStoreConformance,
} from "../../../test/conformance/attachment-store.js";
import { sha256Of } from "../../ports/attachment-rules.js";
import { attachmentBlobPath, createSqliteAttachmentStore } from "./attachments.js";
import { openDatabase } from "./database.js";

runAttachmentStoreConformance("sqlite", async () => {
  const folder = mkdtempSync(join(tmpdir(), "toolreg-attachments-"));
  const path = join(folder, "stores.db");
  const directory = `${path}.attachments`;
  const opened: Database.Database[] = [openDatabase(path)];
  const open = () => {
    const database = openDatabase(path);
    opened.push(database);
    return createSqliteAttachmentStore(database, directory, { caps: CONFORMANCE_CAPS });
  };
  const tenantFolder = (tenantId: string) => dirname(attachmentBlobPath(directory, tenantId, "x"));
  return {
    store: createSqliteAttachmentStore(opened[0]!, directory, { caps: CONFORMANCE_CAPS }),
    reopen: async () => {
      opened[0]!.close();
      return open();
    },
    another: async () => open(),
    blobs: {
      count: async (tenantId) => {
        try {
          return readdirSync(tenantFolder(tenantId)).filter((file) => !file.startsWith(".tmp-")).length;
        } catch {
          return 0;
        }
      },
      plant: async (tenantId, bytes) => {
        mkdirSync(tenantFolder(tenantId), { recursive: true });
        writeFileSync(attachmentBlobPath(directory, tenantId, sha256Of(bytes)), bytes);
        // And half a file a crash left under its temporary name: deleted, but not counted as bytes.
        writeFileSync(join(tenantFolder(tenantId), ".tmp-crashed"), bytes.subarray(0, 3));
      },
      drop: async (tenantId, sha256) => rmSync(attachmentBlobPath(directory, tenantId, sha256)),
    },
    cleanup: async () => {
      for (const database of opened) if (database.open) database.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
});
