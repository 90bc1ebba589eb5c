/**
 * @module A toolkit record's row as both SQL adapters keep it: the owner's columns, the times, the version and
 * the data as JSON text (on PostgreSQL too, where JSONB would refuse a NUL or a lone surrogate).
 */
import type { ToolkitRecord, ToolkitRecordOwner } from "../../ports/toolkit-record-store.js";

export interface ToolkitRecordRow {
  id: string;
  created_at: number;
  updated_at: number;
  version: number;
  data: string;
}

/** The columns a read selects, in the row's shape. */
export const TOOLKIT_RECORD_COLUMNS = "id, created_at, updated_at, version, data";

/** The record a row of `owner`'s holds; its data parsed afresh, so no caller shares it. */
export function toolkitRecordOf(owner: ToolkitRecordOwner, row: ToolkitRecordRow): ToolkitRecord {
  return {
    toolkit: owner.toolkit,
    tenantId: owner.tenantId,
    principalId: owner.principalId,
    id: row.id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    data: JSON.parse(row.data),
  };
}
