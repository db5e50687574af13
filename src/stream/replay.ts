/**
 * Replay: a dump fed block by block through the normal ingest path on a simulated clock, so that
 * subscribers see the market exactly as they would have live (DESIGN.md 8).
 *
 * Clock: the first block (or `from`, when given) is released when the replay starts, and block b at
 * start + (t_b - t_0) / speed of wall time, pauses excluded; speed 1 is real time. Blocks that are
 * due together (the replay is behind its clock, or speed is Infinity) are committed together, up to
 * MAX_UNIT_BLOCKS blocks and MAX_UNIT_ROWS rows, with no timer: each block still gets its own
 * pushes, so the streams do not depend on how blocks were grouped. Between commits the replay lets
 * the event loop run once, so that port subscribers read and acknowledge while it goes on. `from`/`to` keep the blocks with from <= time < to; rows
 * without a slot (tokens) are always ingested, at once.
 */
import { emptyReport, mergeReport, type IngestReport } from '../ingest/pipeline.js';
import type { ValidatedBatch } from '../ingest/validate.js';
import { yieldToEventLoop } from '../platform/event-loop.js';
import { encodeTimestamp } from '../schema/encode.js';
import { joinUnits, type ReplayUnit } from './replay-blocks.js';

/** Options of `engine.replay`. */
export interface ReplayOptions {
  /** Simulated seconds per wall-clock second: 1 = real time (default), Infinity = as fast as possible. */
  speed?: number;
  /** First block time to replay (inclusive): Unix seconds, ISO-8601, or ns as a bigint. */
  from?: number | string | bigint;
  /** Block time to stop at (exclusive). */
  to?: number | string | bigint;
  /**
   * History kept behind the newest block while the replay runs (as the engine
   * option `retain`, docs/semantics.md Retention): seconds or "15m", "2h"...; "all" keeps everything.
   * Default 15m. An engine's own, shorter `retain` still applies.
   */
  retain?: number | string;
  /** A dump's folder holding a file that cannot be loaded is an error, not a skipped file (as `load`'s `strict`). */
  strict?: boolean;
}

/** A replay's retention when it names none: streams need the live windows, not the dump. */
export const DEFAULT_REPLAY_RETAIN = '15m';

/**
 * What a replay did: the ingest report of its blocks, and how it ran. `JSON.stringify` writes it
 * with the times as ISO-8601 strings, as the wire writes timestamps (see `toJSON`).
 */
export interface ReplayReport extends IngestReport {
  /** True when `stop()` ended it before the end of the source. */
  stopped: boolean;
  /** Wall-clock seconds from start (the engine's store open) to end, pauses included. */
  seconds: number;
  /** Blocks committed per wall-clock second (pauses excluded). */
  blocksPerSecond: number;
  /** Times of the first and last replayed blocks, ns. */
  firstTime?: bigint;
  lastTime?: bigint;
  /** The report as JSON has it: `firstTime` and `lastTime` as ISO-8601 strings with 9 fraction digits (JSON has no bigint). */
  toJSON(): ReplayReportJSON;
}

/** A replay report in JSON: the times as ISO-8601 strings, everything else as it is. */
export type ReplayReportJSON = Omit<ReplayReport, 'firstTime' | 'lastTime' | 'toJSON'> & { firstTime?: string; lastTime?: string };

/** Gives a report its `toJSON` (not enumerable: a copy or a comparison sees the fields only). */
function reportOf(fields: Omit<ReplayReport, 'toJSON'>): ReplayReport {
  const toJSON = (): ReplayReportJSON => ({
    ...fields,
    firstTime: fields.firstTime === undefined ? undefined : encodeTimestamp(fields.firstTime),
    lastTime: fields.lastTime === undefined ? undefined : encodeTimestamp(fields.lastTime),
  });
  return Object.defineProperty(fields, 'toJSON', { value: toJSON }) as ReplayReport;
}

/** A running replay: await it (or `.done`) for its report; pause, resume or stop it meanwhile. */
export interface Replay extends PromiseLike<ReplayReport> {
  readonly done: Promise<ReplayReport>;
  /** 'running', 'paused', 'stopped' (by stop(), until the current commit ends) or 'done'. */
  readonly state: 'running' | 'paused' | 'stopped' | 'done';
  /** The simulated clock, ns: t_0 + elapsed wall time x speed (at Infinity: the newest block's time); undefined before the first block. */
  readonly time: bigint | undefined;
  /** Holds back the next blocks (the block being committed completes). */
  pause(): void;
  /** Goes on from where the clock was paused. */
  resume(): void;
  /**
   * Changes the speed from now on: the clock goes on from where it stands, at the new pace (a
   * player's speed control). The blocks already due are committed as before.
   */
  setSpeed(speed: number): void;
  /** Ends the replay after the block being committed; the report says `stopped`. */
  stop(): void;
  /**
   * Resolves once no block is being committed: the replay is waiting (paused, or for its next
   * block's time) or has ended. After `pause()`, it says the commit under way, if any, is over.
   */
  idle(): Promise<void>;
}

/**
 * Rows and blocks committed together at most, when several blocks are due at once. A commit's
 * publication is one synchronous stretch (the market's pairs take each block then), which a
 * server's requests wait for: 16 mainnet-profile blocks hold the thread for tens of ms where 64
 * held it for 85-115 ms, at the same replay speed (10-minute replay, 1.02x wall, within noise).
 */
export const MAX_UNIT_ROWS = 65_536;
export const MAX_UNIT_BLOCKS = 16;


/**
 * How a replay ingests a group of blocks, in two steps: the call starts what needs nothing
 * committed before it (the transactions' forms, made in the kernel worker: `IngestPipeline.start`),
 * and returns what commits it through the engine's pipeline.
 */
export type ReplayCommit = (batches: ValidatedBatch[]) => () => Promise<IngestReport>;

const now = () => performance.now();

function checkSpeed(speed: number): void {
  if (!(speed > 0)) throw new RangeError(`replay: speed must be a positive number or Infinity, got ${speed}`);
}

/**
 * Starts a replay of `units` (ascending slots) once `ready` resolves; `finish` gives, at the end,
 * what the reader refused on its own (folded into the report).
 */
export function startReplay(
  units: AsyncIterable<ReplayUnit>, commit: ReplayCommit,
  options: { speed: number; from?: bigint; to?: bigint; ready?: Promise<unknown> }, finish?: () => IngestReport | undefined,
): Replay {
  const { from, to, ready } = options;
  let { speed } = options;
  checkSpeed(speed);
  let state: Replay['state'] = 'running';
  let started = now();
  // the clock: simulated time t0 at wall time clockStart (shifted by pauses), advancing at `speed`;
  // a speed change moves t0 to the clock's time then and clockStart to that moment
  let clockStart = started;
  let pausedAt: number | undefined;
  let pausedTotal = 0;
  let t0: bigint | undefined;
  let lastTime: bigint | undefined;
  let firstTime: bigint | undefined;
  let wake: (() => void) | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wakeUp = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const w = wake;
    wake = undefined;
    w?.();
  };

  /** The simulated clock: see Replay.time. */
  const clockTime = (): bigint | undefined => {
    if (t0 === undefined) return undefined;
    if (speed === Infinity || state === 'done') return lastTime;
    const wall = (pausedAt ?? now()) - clockStart;
    return t0 + BigInt(Math.max(0, Math.floor(wall * 1e6 * speed)));
  };
  const dueAt = (time: bigint) => clockStart + Number(time - t0!) / 1e6 / speed;
  const isDue = (unit: ReplayUnit) => unit.time === undefined || speed === Infinity || dueAt(unit.time) <= now();
  const inRange = (unit: ReplayUnit) => unit.time === undefined || from === undefined || unit.time >= from;

  /** Waits while paused, then until `unit` is due; false when stopped meanwhile. */
  async function waitFor(unit: ReplayUnit): Promise<boolean> {
    for (;;) {
      if (state === 'stopped') return false;
      if (state === 'paused') {
        await waiting(new Promise<void>((resolve) => (wake = resolve)));
        continue;
      }
      if (isDue(unit)) return true;
      const ms = dueAt(unit.time!) - now();
      await waiting(new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(wakeUp, ms);
      }));
    }
  }

  /** idle(): resolved while the replay waits or once it has ended. */
  let idle = false;
  const idleWaiters: (() => void)[] = [];
  const setIdle = (value: boolean) => {
    idle = value;
    if (value) for (const resolve of idleWaiters.splice(0)) resolve();
  };
  async function waiting(wait: Promise<void>): Promise<void> {
    setIdle(true);
    await wait;
    setIdle(false);
  }

  async function run(): Promise<ReplayReport> {
    const report = emptyReport();
    await ready; // the clock starts once the engine can commit (its store is open)
    started = now();
    const iterator = units[Symbol.asyncIterator]();
    const pull = async (): Promise<ReplayUnit | undefined> => {
      for (;;) {
        const next = await iterator.next();
        if (next.done) return undefined;
        const unit = next.value;
        if (unit.slot !== undefined && unit.time !== undefined && to !== undefined && unit.time >= to) return undefined;
        if (!inRange(unit)) continue;
        if (unit.time !== undefined && t0 === undefined) {
          t0 = from !== undefined && from < unit.time ? from : unit.time;
          clockStart = now(); // the clock starts with the first block
        }
        return unit;
      }
    };
    // the group committed last, while it may still be under way: the next group is read and its forms
    // made meanwhile (the kernel worker busy while the serving thread commits, not one after the other)
    let committing: Promise<void> | undefined;
    const settle = async () => {
      const last = committing;
      committing = undefined;
      await last;
    };
    try {
      let unit = await pull();
      while (unit) {
        // a replay waits (paused, or for its clock) with nothing being committed: what idle() tells
        if (state !== 'running' || !isDue(unit)) await settle();
        if (!(await waitFor(unit))) break;
        const group = [unit];
        let rows = unit.rows;
        unit = await pull();
        while (unit && state === 'running' && group.length < MAX_UNIT_BLOCKS && rows + unit.rows <= MAX_UNIT_ROWS && isDue(unit)) {
          group.push(unit);
          rows += unit.rows;
          unit = await pull();
        }
        const commitGroup = commit(joinUnits(group));
        await settle(); // one commit at a time, in order; none after one failed
        committing = commitGroup().then((part) => {
          mergeReport(report, part);
          for (const u of group) {
            if (u.time === undefined || u.slot === undefined) continue;
            firstTime ??= u.time;
            lastTime = u.time;
          }
        });
        committing.catch(() => undefined); // thrown where it is settled
        await yieldToEventLoop();
      }
      await settle();
    } finally {
      await committing?.catch(() => undefined);
      await iterator.return?.();
    }
    const extra = finish?.();
    if (extra) mergeReport(report, extra);
    const stopped = state === 'stopped';
    state = 'done';
    const seconds = (now() - started) / 1000;
    const active = seconds - pausedTotal / 1000;
    return reportOf({ ...report, stopped, seconds, blocksPerSecond: active > 0 ? report.blocks / active : 0, firstTime, lastTime });
  }

  const done = run();
  done.catch(() => undefined); // the caller gets the rejection through then/done
  done.finally(() => setIdle(true)).catch(() => undefined);
  return {
    done,
    get state() {
      return state;
    },
    get time() {
      return clockTime();
    },
    pause() {
      if (state !== 'running') return;
      state = 'paused';
      pausedAt = now();
    },
    resume() {
      if (state !== 'paused') return;
      const paused = now() - pausedAt!;
      pausedTotal += paused;
      clockStart += paused;
      pausedAt = undefined;
      state = 'running';
      wakeUp();
    },
    setSpeed(next: number) {
      checkSpeed(next);
      if (t0 !== undefined && state !== 'done') {
        t0 = clockTime() ?? t0;
        clockStart = pausedAt ?? now();
      }
      speed = next;
      wakeUp(); // a waiting block may be due sooner (or later) now
    },
    stop() {
      if (state === 'done' || state === 'stopped') return;
      if (pausedAt !== undefined) pausedTotal += now() - pausedAt;
      pausedAt = undefined;
      state = 'stopped';
      wakeUp();
    },
    idle() {
      return idle ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    then(onFulfilled, onRejected) {
      return done.then(onFulfilled, onRejected);
    },
  };
}
