/**
 * Rows of the SQL assistant stores (SQLite and PostgreSQL share the column
 * names) and their mapping to records.
 */
import { isoTimestamp, json } from "../runs/sql-rows.js";
import type { AssistantContent } from "./assistant-input.js";
import type { AssistantRecord, AssistantVersionRecord } from "./assistant-store.js";

/** A row of `assistant_versions` (JSON columns as `jsonb` objects or SQLite text). */
export interface AssistantVersionRow {
  assistant_id: string;
  graph_id: string;
  name: string;
  description: string | null;
  config: unknown;
  context: unknown;
  metadata: unknown;
  version: number | string;
  created_at: Date | string;
}

/** A row of `assistants`. */
export interface AssistantRow extends AssistantVersionRow {
  owner: string;
  updated_at: Date | string;
}

/** Maps an `assistant_versions` row. */
export function toAssistantVersion(row: AssistantVersionRow): AssistantVersionRecord {
  return {
    assistantId: row.assistant_id,
    graphId: row.graph_id,
    name: row.name,
    description: row.description,
    config: json(row.config),
    context: json(row.context),
    metadata: json(row.metadata),
    version: Number(row.version),
    createdAt: isoTimestamp(row.created_at),
  };
}

/** Maps an `assistants` row. */
export function toAssistant(row: AssistantRow): AssistantRecord {
  const { createdAt, ...version } = toAssistantVersion(row);
  return {
    ...version,
    owner: row.owner,
    createdAt,
    updatedAt: isoTimestamp(row.updated_at),
  };
}

/**
 * The values of the content columns `graph_id, name, description, config,
 * context, metadata`, in that order, JSON as text: both SQL stores write the
 * same six columns in `assistants` and `assistant_versions`.
 */
export function contentColumns(
  content: AssistantContent,
): [graphId: string, name: string, description: string | null, config: string, context: string, metadata: string] {
  return [
    content.graphId,
    content.name,
    content.description,
    JSON.stringify(content.config),
    JSON.stringify(content.context),
    JSON.stringify(content.metadata),
  ];
}
