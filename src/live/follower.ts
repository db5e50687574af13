/**
 * The slot loop: asks for the tip, lists the slots with blocks from the next slot on (getBlocks, at
 * most a range at a time), and takes them one by one in slot order: fetch, decode, ingest, cursor.
 * Every slot from the newest committed one + 1 to the tip is examined, so a stall or a restart
 * leaves no gap. The next blocks' getBlock calls run while a block is ingested (PREFETCH of them).
 */
import type { Engine } from '../engine.js';
import type { GetBlockDecodeOptions } from '../ingest/solana/index.js';
import { ingestBlock } from './block-ingest.js';
import { readCursor, writeCursor } from './cursor.js';
import { sleep, type RetryPolicy } from './retry.js';
import { FollowStopped, RpcClient } from './rpc-client.js';
import { getBlock, getBlocks, getSlot, type BlockEncoding, type Commitment, type FetchedBlock } from './solana-methods.js';
import type { FollowEvent, FollowReport, FollowState, FollowStatus } from './types.js';

/** getBlock calls run ahead of the block being ingested: decoding and ingesting overlap the next downloads. */
const PREFETCH = 2;

/** The options, checked and with their defaults. */
export interface FollowSettings {
  url: string;
  encoding: BlockEncoding;
  commitment: Commitment;
  pollMs: number;
  startSlot?: bigint;
  cursorFile?: string;
  maxBlocksPerRequest: number;
  requestTimeoutMs: number;
  retry: RetryPolicy;
  fetch: typeof fetch;
  decode?: GetBlockDecodeOptions;
  onEvent?: (event: FollowEvent) => void;
}

const noop = () => undefined;

export class SlotFollower {
  readonly done: Promise<FollowReport>;
  readonly #client: RpcClient;
  readonly #stop = new AbortController();
  #state: FollowState = 'starting';
  /** The next slot to examine. */
  #next: bigint | undefined;
  #tip: bigint | undefined;
  #newestCommitted: bigint | undefined;
  #caughtUp = false;
  readonly #counts = { committed: 0, skipped: 0, rejected: 0, retries: 0 };
  readonly #rows = { read: 0, ingested: 0, rejected: 0 };

  constructor(
    private readonly engine: Pick<Engine, 'ingest'>,
    private readonly settings: FollowSettings,
  ) {
    this.#client = new RpcClient({
      url: settings.url,
      timeoutMs: settings.requestTimeoutMs,
      retry: settings.retry,
      fetch: settings.fetch,
      signal: this.#stop.signal,
      onRetry: (notice) => {
        this.#counts.retries++;
        this.#emit({ type: 'retry', ...notice });
      },
    });
    this.done = this.#run();
    // a fatal error is also an 'error' event: a caller who never awaits `done` gets no unhandled rejection
    this.done.catch(noop);
  }

  stop(): Promise<FollowReport> {
    if (!this.#stop.signal.aborted) this.#stop.abort(new FollowStopped());
    return this.done;
  }

  status(): FollowStatus {
    const tip = this.#tip;
    const next = this.#next;
    return {
      ...(this.#newestCommitted !== undefined && { newestCommittedSlot: this.#newestCommitted.toString() }),
      ...(tip !== undefined && { tipSlot: tip.toString() }),
      ...(tip !== undefined && next !== undefined && { behind: next > tip ? 0 : Number(tip - next + 1n) }),
      ...this.#counts,
      state: this.#state,
    };
  }

  #report(): FollowReport {
    return {
      ...(this.#newestCommitted !== undefined && { newestCommittedSlot: this.#newestCommitted.toString() }),
      ...this.#counts,
      rows: { ...this.#rows },
    };
  }

  #emit(event: FollowEvent): void {
    try {
      this.settings.onEvent?.(event);
    } catch {
      // a listener's defect is not the follower's: it keeps following
    }
  }

  async #run(): Promise<FollowReport> {
    try {
      await this.#follow();
    } catch (error) {
      if (!(error instanceof FollowStopped)) {
        const fatal = error instanceof Error ? error : new Error(String(error));
        this.#emit({ type: 'error', error: fatal });
        throw fatal;
      }
    } finally {
      this.#state = 'stopped';
      // after a fatal error, the getBlock calls still running ahead are cancelled too
      if (!this.#stop.signal.aborted) this.#stop.abort(new FollowStopped());
    }
    return this.#report();
  }

  get #stopping(): boolean {
    return this.#stop.signal.aborted;
  }

  async #follow(): Promise<void> {
    const { commitment, cursorFile, maxBlocksPerRequest, pollMs } = this.settings;
    if (cursorFile !== undefined) this.#newestCommitted = await readCursor(cursorFile);
    this.#next = this.#newestCommitted !== undefined ? this.#newestCommitted + 1n : this.settings.startSlot;
    /** The tip at which getBlocks last listed nothing new: asked again only once the tip moves. */
    let idleTip: bigint | undefined;
    while (!this.#stopping) {
      const tip = (this.#tip = await getSlot(this.#client, commitment));
      this.#next ??= tip;
      if (this.#next <= tip && tip !== idleTip) {
        const end = tip - this.#next < BigInt(maxBlocksPerRequest) ? tip : this.#next + BigInt(maxBlocksPerRequest) - 1n;
        this.#state = end < tip ? 'catching-up' : 'following';
        const slots = await getBlocks(this.#client, this.#next, end, commitment);
        if (await this.#followRange(slots, end < tip ? end : undefined)) {
          this.#caughtUp = false;
          continue; // more may be there: ask for the tip again at once
        }
        idleTip = tip;
      }
      this.#state = 'following';
      if (!this.#caughtUp) {
        this.#caughtUp = true;
        this.#emit({ type: 'caughtUp', slot: tip.toString() });
      }
      await sleep(pollMs, this.#stop.signal);
    }
  }

  /**
   * Takes the listed slots in order; the slots between them had no block. Slots after the last
   * listed one count as skipped only when the range lies wholly behind the tip (`closedEnd`): near the
   * tip, a load-balanced node behind the one that gave the tip may not list them yet, so they are
   * examined again with the next range. Returns whether any slot was done.
   */
  async #followRange(slots: readonly bigint[], closedEnd: bigint | undefined): Promise<boolean> {
    const from = this.#next!;
    const fetches: (Promise<FetchedBlock> | undefined)[] = [];
    const fetchAhead = (i: number) => {
      if (i >= slots.length || fetches[i] !== undefined) return;
      const fetch = getBlock(this.#client, slots[i]!, this.settings.encoding, this.settings.commitment);
      fetch.catch(noop); // awaited in its turn; by then it may have failed, or been cancelled by a stop
      fetches[i] = fetch;
    };
    for (let i = 0; i < slots.length && !this.#stopping; i++) {
      for (let k = i; k <= i + PREFETCH; k++) fetchAhead(k);
      const slot = slots[i]!;
      this.#skipUpTo(slot);
      const fetched = await fetches[i]!;
      fetches[i] = undefined;
      // a block fetched but not yet ingested is left for the next run (the cursor has not passed it)
      if (this.#stopping) break;
      await this.#take(slot, fetched);
      this.#next = slot + 1n;
    }
    if (closedEnd !== undefined && !this.#stopping) this.#skipUpTo(closedEnd + 1n);
    return this.#next! > from;
  }

  /** Counts the slots from the next one up to `slot` (excluded) as skipped. */
  #skipUpTo(slot: bigint): void {
    for (; this.#next! < slot; this.#next!++) this.#skipped(this.#next!);
  }

  #skipped(slot: bigint): void {
    this.#counts.skipped++;
    this.#emit({ type: 'skipped', slot: slot.toString() });
  }

  #rejected(slot: bigint, reason: string): void {
    this.#counts.rejected++;
    this.#emit({ type: 'rejected', slot: slot.toString(), reason });
  }

  async #take(slot: bigint, fetched: FetchedBlock): Promise<void> {
    if (fetched.kind === 'skipped') return this.#skipped(slot);
    if (fetched.kind === 'malformed') return this.#rejected(slot, fetched.reason);
    const source = `rpc:${this.#client.url}#${slot}`;
    const outcome = await ingestBlock(this.engine, fetched.document, source, this.settings.decode).catch((error: unknown) => {
      throw new Error(`ingesting slot ${slot} from ${this.#client.url} failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
    });
    if (outcome.kind === 'rejected') return this.#rejected(slot, outcome.reason);
    this.#newestCommitted = slot;
    if (this.settings.cursorFile !== undefined) await writeCursor(this.settings.cursorFile, slot);
    this.#counts.committed++;
    this.#rows.read += outcome.report.read;
    this.#rows.ingested += outcome.report.ingested;
    this.#rows.rejected += outcome.report.rejected;
    this.#emit({ type: 'committed', slot: slot.toString(), transactions: outcome.transactions, report: outcome.report });
  }
}
