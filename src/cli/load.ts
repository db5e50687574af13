/** Loading data for a command: an engine over the given paths, with progress and every problem on stderr. */
import type { IngestReport } from '../ingest/pipeline.js';
import { createEngine, type Engine, type LoadOptions } from '../index.node.js';
import { formatRejection, reportProblems } from './load-report.js';
import { progress } from './progress.js';

/** Loading failed: exit status 1. */
export class LoadFailed extends Error {}

/** The one-line summary of a finished load or replay: "VERB N blocks (rows, rejected, warnings) in S s: RATE". */
export const summary = (verb: string, report: IngestReport, seconds: number, rate: string): string =>
  `${verb} ${report.blocks} blocks (${report.ingested} rows, ${report.rejected} rejected, ${report.warnings.length} warning${report.warnings.length === 1 ? '' : 's'}) ` +
  `in ${seconds.toFixed(1)} s: ${rate}`;

/**
 * Creates an engine and loads every path into it; prints the summary, the rejections and warnings
 * (and writes the rejections to `rejectionsFile`). Throws LoadFailed when nothing could be loaded.
 */
export async function loadEngine(
  paths: readonly string[], rejectionsFile?: string, strict = false,
): Promise<{ engine: Engine; report: IngestReport }> {
  const engine = await createEngine();
  let report: IngestReport;
  try {
    report = await loadWithProgress(engine, paths, { strict }, rejectionsFile);
  } catch (error) {
    await engine.close();
    throw new LoadFailed((error as Error).message);
  }
  if (report.read > 0 && report.ingested === 0) {
    await engine.close();
    const first = report.rejections[0];
    throw new LoadFailed(`no valid rows in ${paths.join(', ')}${first ? `; first problem: ${formatRejection(first)}` : ''}`);
  }
  return { engine, report };
}

/**
 * Loads `paths` into `engine` with a progress bar on stderr, then prints the summary, the rejections
 * and warnings (and writes the rejections to `rejectionsFile`); a failed load rejects, the bar cleared.
 */
export async function loadWithProgress(
  engine: Engine, paths: readonly string[], options: Pick<LoadOptions, 'strict' | 'signal'>, rejectionsFile?: string,
): Promise<IngestReport> {
  const bar = progress('loading', 'rows');
  const started = performance.now();
  let report: IngestReport;
  try {
    report = await engine.load(paths.length === 1 ? paths[0]! : paths, {
      ...options,
      onProgress: (p) => bar.update(p.rows, undefined, `${p.blocks} blocks, ${p.files}/${p.totalFiles} files`),
    });
  } catch (error) {
    bar.done();
    throw error;
  }
  const seconds = (performance.now() - started) / 1000;
  bar.done(summary(`loaded ${paths.join(', ')}:`, report, seconds, `${Math.round(report.read / Math.max(seconds, 1e-3))} rows/s`));
  await reportProblems(report, rejectionsFile);
  return report;
}
