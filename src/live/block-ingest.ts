/**
 * One fetched block through the decoder and into the engine, reported the way engine.load reports a
 * raw getBlock file: the decoder's refused transactions count as read and rejected, its warnings
 * join ingest's.
 */
import type { Engine } from '../engine.js';
import { emptyReport, mergeReport, type IngestReport } from '../ingest/pipeline.js';
import { decodeGetBlockFile, type DecodeIssue, type GetBlockDecodeOptions } from '../ingest/solana/index.js';

export type BlockOutcome =
  | { kind: 'committed'; transactions: number; report: IngestReport }
  | { kind: 'rejected'; reason: string };

const describeIssue = (issue: DecodeIssue) => `${issue.field ? `${issue.field}: ` : ''}${issue.message}`;

/**
 * Decodes `document` (`{"slot", "block"}` text) and ingests its rows in one `engine.ingest`, so the
 * block commits entirely or not at all. A block the decoder refuses, or the engine does not commit
 * (a slot not newer than its newest), is `rejected` with their words.
 */
export async function ingestBlock(
  engine: Pick<Engine, 'ingest'>, document: string, source: string, options: GetBlockDecodeOptions | undefined,
): Promise<BlockOutcome> {
  let decoded;
  try {
    decoded = decodeGetBlockFile(document, source, options);
  } catch (error) {
    // the decoder throws only on its own defects; one bad block must not stop the follower
    return { kind: 'rejected', reason: `the decoder failed: ${(error as Error)?.message ?? String(error)}` };
  }
  if (decoded.blocks.length === 0) {
    return { kind: 'rejected', reason: decoded.rejections.map(describeIssue).join('; ') || 'the answer holds no block' };
  }
  const { blocks, transactions, trades, tokens } = decoded;
  const ingested = await engine.ingest({ blocks, transactions, trades, tokens });
  if (ingested.blocks === 0) {
    return { kind: 'rejected', reason: ingested.rejections[0]?.message ?? 'the engine committed nothing of the block' };
  }
  const report = mergeReport(emptyReport(), ingested);
  report.read += decoded.rejections.length;
  report.rejected += decoded.rejections.length;
  report.rejections.push(...decoded.rejections);
  report.warnings.push(...decoded.warnings.map((w) => `${w.source}:${w.row}: ${describeIssue(w)}`));
  return { kind: 'committed', transactions: transactions.length, report };
}
