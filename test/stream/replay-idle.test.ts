/**
 * Replay.idle() on its own, with a commit the test holds: it stays pending while a block is being
 * committed (even once paused), and resolves when the replay waits or has ended.
 */
import { describe, expect, it } from 'vitest';
import { emptyReport, type IngestReport } from '../../src/ingest/pipeline.js';
import type { ReplayUnit } from '../../src/stream/replay-blocks.js';
import { startReplay } from '../../src/stream/replay.js';

async function* units(n: number, rows = 1): AsyncGenerator<ReplayUnit> {
  for (let i = 0; i < n; i++) yield { slot: BigInt(i), time: BigInt(i) * 400_000_000n, batches: [], rows };
}

/** Resolves after `turns` turns of the event loop (to let anything pending run; nothing is timed). */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

describe('replay.idle()', () => {
  it('waits for the commit under way, then resolves while paused and once ended', async () => {
    const started: (() => void)[] = [];
    let commits = 0;
    let firstStarted!: () => void;
    const first = new Promise<void>((resolve) => (firstStarted = resolve));
    const commit = () => (): Promise<IngestReport> => {
      commits++;
      if (commits > 1) return Promise.resolve({ ...emptyReport(), blocks: 1 });
      firstStarted();
      return new Promise((resolve) => started.push(() => resolve({ ...emptyReport(), blocks: 1 })));
    };
    const replay = startReplay(units(3), commit, { speed: 1 }); // blocks 400 ms apart: one commit each
    await first; // the first block's commit is under way, held by the test
    replay.pause();
    let idle = false;
    void replay.idle().then(() => (idle = true));
    await turns(20);
    expect(idle).toBe(false);
    started[0]!(); // the commit ends
    await replay.idle();
    expect(replay.state).toBe('paused');
    expect(commits).toBe(1);
    await turns(20);
    expect(commits).toBe(1); // paused: nothing more
    replay.resume();
    const report = await replay;
    expect(commits).toBeGreaterThanOrEqual(2); // the two blocks left, alone or together
    expect(report).toMatchObject({ stopped: false, lastTime: 800_000_000n });
    await replay.idle(); // ended: at once
    expect(replay.state).toBe('done');
  });

  it('starts the next group while one commits, commits them one at a time in order, and none after one failed', async () => {
    const events: string[] = [];
    let inFlight = 0;
    const commit = () => {
      const group = events.filter((e) => e.startsWith('start')).length;
      events.push(`start ${group}`);
      return async (): Promise<IngestReport> => {
        expect(inFlight).toBe(0);
        inFlight++;
        events.push(`commit ${group}`);
        await turns(5);
        events.push(`end ${group}`);
        inFlight--;
        if (group === 2) throw new Error('the store failed');
        return { ...emptyReport(), blocks: 1 };
      };
    };
    // a group a block (each block fills a group's rows), all due at once
    const replay = startReplay(units(6, 65_536), commit, { speed: Infinity });
    await expect(replay.done).rejects.toThrow('the store failed');
    // group 1 started while group 0 committed, and so on; group 3 started, never committed
    expect(events).toEqual(['start 0', 'commit 0', 'start 1', 'end 0', 'commit 1', 'start 2', 'end 1', 'commit 2', 'start 3', 'end 2']);
  });
});
