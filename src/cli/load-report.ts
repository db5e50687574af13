/** What a load left to say: its rejected rows and warnings, on stderr and, on request, in a file. */
import { writeFile } from 'node:fs/promises';
import type { IngestReport } from '../ingest/pipeline.js';
import type { Rejection } from '../ingest/validate.js';

/** Rejections printed before "... and N more". */
export const SHOWN_REJECTIONS = 20;

/** One rejection on one line: where, which field, why. */
export const formatRejection = (r: Rejection): string => `${r.source}:${r.row}${r.field ? ` ${r.field}` : ''}: ${r.message}`;

/**
 * Prints the rejections (the first SHOWN_REJECTIONS, then how many more) and every warning, and
 * writes every rejection to `file` when given, one JSON object {source,row,field,message} per line.
 */
export async function reportProblems(report: IngestReport, file?: string, print = (line: string) => console.error(line)): Promise<void> {
  const { rejections, warnings } = report;
  for (const rejection of rejections.slice(0, SHOWN_REJECTIONS)) print(`rejected ${formatRejection(rejection)}`);
  const more = rejections.length - SHOWN_REJECTIONS;
  if (more > 0) print(`... and ${more} more rejected rows${file ? ` (all in ${file})` : ' (--rejections FILE writes them all)'}`);
  for (const warning of warnings) print(`warning: ${warning}`);
  if (file === undefined) return;
  const lines = rejections.map(({ source, row, field, message }) => JSON.stringify({ source, row, field, message }) + '\n');
  await writeFile(file, lines.join(''));
}
