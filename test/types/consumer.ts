/**
 * A consumer of the package as a user writes one: `tsc -p test/types` must compile it (test/package.test.ts),
 * so every `@ts-expect-error` below is a mistake the published types catch.
 */
import { connect, createEngine, schema, type Candle, type MethodName, type ParamsOf, type WireRecordOf } from 'chainlens';

const engine = await createEngine();

const trades = await engine.call('chain::market::trades', { limit: 10, at: '2026-01-01T00:30:00Z' });
const price: string | null = trades[0]!.price; // numbers arrive as decimal strings
const slot: string = trades[0]!.slot; // u64 as an exact decimal string, never null (NEVER_NULL_FIELDS)
const baseAmount: string = trades[0]!.base_amount;
const blockFees = await engine.call('chain::priorityfee::block', {});
const txCount: string = blockFees[0]!.tx_count;
// @ts-expect-error consumed compute units may be unknown (null), so their total may be null
const totalUnits: string = blockFees[0]!.total_compute_units;
const when: string = trades[0]!.timestamp; // ISO-8601
const buy: boolean = trades[0]!.is_buy;
const id: number = trades[0]!.id;
// @ts-expect-error a wire price is a string, not a number
const wrongPrice: number = trades[0]!.price;
// @ts-expect-error Trade has no field 'size'
trades[0]!.size;

// @ts-expect-error a typo'd method name
await engine.call('chain::market::tradez', { limit: 10 });
// @ts-expect-error limit is a number
await engine.call('chain::market::trades', { limit: '10' });
// @ts-expect-error '2m' is not a window of chain::priorityfee::fee
await engine.call('chain::priorityfee::fee', { window: '2m' });
// @ts-expect-error an unknown param
await engine.call('chain::priorityfee::fee', { windows: '1m' });
// @ts-expect-error ohlcv's window has no default
await engine.call('chain::market::ohlcv', { limit: 5 });

const candles: Candle[] = await engine.call('chain::market::ohlcv', { window: '1m', at: 1767227400 });
const close: string | null = candles[0]!.close;
const sameCandle: schema.Candle | undefined = candles[0]; // the schema namespace: field lists, and the wire type of the same name
const fields: number = schema.Candle.fields.length;
const fees = await engine.call('chain::priorityfee::fee');
const valid: boolean = fees[0]!.is_valid;

// a method named at run time: any name, any params, generic wire records
const dynamic: string = process.argv[2] ?? 'chain::market::token';
const records = await engine.call(dynamic, { anything: 1 });
const value: string | number | boolean | null | undefined = records[0]?.['field'];

// the method map, for code generic over methods
const name: MethodName = 'chain::priorityfee::recommendation';
const params: ParamsOf<'chain::priorityfee::recommendation'> = { window: '3m', limit: 2 };
// @ts-expect-error 3m is a recommendation window, not a fee window
const feeParams: ParamsOf<'chain::priorityfee::fee'> = { window: '3m' };
const record: WireRecordOf<'chain::priorityfee::recommendation'> | undefined = (await engine.call(name, params))[0];

const sub = await engine.subscribe('chain::market::vwap', { window: '5m' }, (push) => {
  const vwap: string | null | undefined = push.result?.[0]?.vwap;
  void vwap;
});
await sub.unsubscribe();
// @ts-expect-error a typo'd stream
await engine.subscribe('chain::market::vwapp', { window: '5m' }, () => undefined);
// @ts-expect-error vwap's window has no default
await engine.subscribe('chain::market::vwap', {}, () => undefined);

const report = await engine.replay([], { speed: Infinity });
const first: string | undefined = JSON.parse(JSON.stringify(report)).firstTime;

const { port1, port2 } = new MessageChannel();
engine.serve(port1);
const client = connect(port2);
const blocks = await client.call('chain::priorityfee::block', { limit: 10 });
const fee: string | null = blocks[0]!.fee_p50;
// @ts-expect-error a typo'd method name over a port
await client.call('chain::priorityfee::blok', { limit: 10 });
client.close();
await engine.close();

export { buy, close, fields, sameCandle, feeParams, fee, first, id, price, record, slot, valid, value, when, wrongPrice };
