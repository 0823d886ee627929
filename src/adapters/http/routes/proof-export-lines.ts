import type { ProofSummary } from '../../../domain/proof/proof-record.js';
import { csvRow } from '../csv.js';
import { summaryBody } from './proof-routes.js';

export type ExportFormat = 'csv' | 'jsonl';

export const EXPORT_MEDIA_TYPES: Readonly<Record<ExportFormat, string>> = {
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/x-ndjson',
};

/** The CSV's columns, in order: a list item's members, but `verified` (always true). */
export const CSV_COLUMNS = [
  'proof_id',
  'created_at',
  'received_at',
  'task_id',
  'robot_id',
  'run_id',
  'signer_public_key_b64',
  'topics',
  'event_count',
] as const;

/** The header line, then one line per proof, each ended by CRLF. */
export const CSV_HEADER = `${CSV_COLUMNS.join(',')}\r\n`;

export function csvLine(p: ProofSummary): string {
  const b = summaryBody(p);
  const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
    proof_id: b.proof_id,
    created_at: b.created_at,
    received_at: b.received_at,
    task_id: b.task_id,
    // No robot or run id is an empty field (the JSON Lines tell null from "").
    robot_id: b.robot_id ?? '',
    run_id: b.run_id ?? '',
    signer_public_key_b64: b.signer_public_key_b64,
    // A JSON array: a topic may hold any character, a separator included.
    topics: JSON.stringify(b.topics),
    event_count: String(b.event_count),
  };
  return csvRow(CSV_COLUMNS.map((c) => cells[c]));
}

/** One JSON object per line: the proof as a list item shows it. */
export const jsonLine = (p: ProofSummary): string => `${JSON.stringify(summaryBody(p))}\n`;

/** The export's text, a page of proofs at a time, read only as fast as it is sent. */
export async function* exportText(pages: AsyncIterable<readonly ProofSummary[]>, format: ExportFormat): AsyncGenerator<string, void> {
  if (format === 'csv') yield CSV_HEADER;
  const line = format === 'csv' ? csvLine : jsonLine;
  for await (const page of pages) yield page.map(line).join('');
}
