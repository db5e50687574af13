/** The slot of a raw getBlock file's first block, from its first bytes. */
import { describe, expect, it } from 'vitest';
import { peekBlockSlot } from '../../src/ingest/block-slot-peek.js';

const block = JSON.stringify({ previousBlockhash: 'x', blockhash: 'y', parentSlot: 254170886, transactions: [{ slot: 7 }], blockTime: 1 });

describe('peekBlockSlot', () => {
  it('takes parentSlot + 1 of a bare block, an envelope, an array and NDJSON', () => {
    expect(peekBlockSlot(block, true)).toEqual({ slot: 254170887n });
    expect(peekBlockSlot(`{"jsonrpc":"2.0","result":${block},"id":1}`, true)).toEqual({ slot: 254170887n });
    expect(peekBlockSlot(`[${block},${block}]`, true)).toEqual({ slot: 254170887n });
    expect(peekBlockSlot(`${block}\n${block}\n`, true)).toEqual({ slot: 254170887n });
  });

  it('prefers the wrapper slot, before or after the block (keys sorted), bare or quoted', () => {
    expect(peekBlockSlot(`{"slot":254170999,"block":${block}}`, true)).toEqual({ slot: 254170999n });
    expect(peekBlockSlot(`{"block":${block},"slot":"254170999"}`, true)).toEqual({ slot: 254170999n });
    expect(peekBlockSlot(`{"jsonrpc":"2.0","result":{"block":${block},"slot":254170999},"id":1}`, true)).toEqual({ slot: 254170999n });
  });

  it('asks for more text when the first bytes end before the slot, and gives up on the whole text', () => {
    const wrapped = `{"block":${block},"slot":254170999}`;
    expect(peekBlockSlot(wrapped.slice(0, 40), false)).toBe('more');
    expect(peekBlockSlot(wrapped.slice(0, wrapped.indexOf('254170999') + 4), false)).toBe('more'); // the number may go on
    expect(peekBlockSlot(wrapped.slice(0, 40), true)).toEqual({ slot: undefined });
  });

  it('finds no slot in an RPC error, a getBlock without parentSlot, or what is not an object', () => {
    expect(peekBlockSlot('{"jsonrpc":"2.0","error":{"code":-32007,"message":"Slot 5 was skipped"},"id":1}', true)).toEqual({ slot: undefined });
    expect(peekBlockSlot('{"blockTime":1,"transactions":[]}', true)).toEqual({ slot: undefined });
    expect(peekBlockSlot('"text"', true)).toEqual({ slot: undefined });
    expect(peekBlockSlot('', true)).toEqual({ slot: undefined });
  });
});
