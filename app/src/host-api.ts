/**
 * What the page asks of the engine worker (engine.worker.ts), over Comlink. The JSON-RPC itself
 * goes over a MessagePort the worker's engine serves (`connect`), exactly as any port client's.
 */

/** A file to open, with its path inside a dropped or picked folder ("" when picked alone). */
export interface OpenFile {
  file: File;
  path: string;
}

/** Progress of a load, after each committed chunk. */
export interface LoadStatus {
  files: number;
  totalFiles: number;
  rows: number;
  blocks: number;
  file: string;
  seconds: number;
}

/** One refused row, as the engine reports it. */
export interface RejectionView {
  source: string;
  row: number;
  field: string;
  message: string;
}

/** The outcome of a load or a replay: the engine's report, and the block times it covered. */
export interface LoadResult {
  read: number;
  ingested: number;
  rejected: number;
  blocks: number;
  /** The first MAX_LISTED rejections (the count is `rejected`). */
  rejections: RejectionView[];
  warnings: string[];
  seconds: number;
  /** Times of the first and newest blocks committed (ISO-8601, ns), absent with no block. */
  firstTime?: string;
  lastTime?: string;
  /** Set when the load or replay failed: what the engine said. */
  error?: string;
}

/** A replay under way (or ended). */
export interface ReplayStatus {
  /** 'pausing' from pause() until the commit under way is over. */
  state: 'running' | 'pausing' | 'paused' | 'stopped' | 'done';
  /** The replay clock (ISO-8601), absent before its first block. */
  time?: string;
  speed: number;
  blocks: number;
  firstTime?: string;
  lastTime?: string;
}

/** The engine worker's control surface. */
export interface EngineHost {
  /** Opens the files in a new engine (the previous one closes) and loads them. */
  open(files: OpenFile[], onProgress: (status: LoadStatus) => void): Promise<LoadResult>;
  /** A port served by the current engine (JSON-RPC envelope, streams included). */
  connect(): MessagePort;
  /** Replays the opened files into a new engine at `speed` (Infinity: as fast as it goes); resolves once started. */
  play(speed: number): Promise<void>;
  /** Holds the replay; resolves once the commit under way (if any) is over. */
  pause(): Promise<void>;
  resume(): void;
  setSpeed(speed: number): void;
  stop(): void;
  /** The replay's status, or undefined when none ran on the current engine. */
  replayStatus(): ReplayStatus | undefined;
  /** Resolves with the replay's report once it has ended. */
  replayEnded(): Promise<LoadResult>;
}

/** Rejections listed in full; the rest are counted. */
export const MAX_LISTED = 200;
