/**
 * Fees: priority-fee percentile bands (p25/p50/p75/p95/p99 of the compute-unit price) per block
 * (chain::priorityfee::block) or per tumbling window (chain::priorityfee::fee), the six
 * recommendation tiers of a trailing window, the top transactions of the last 5 minutes, and the
 * local fee market of the accounts typed in (chain::priorityfee::estimate over 150 blocks).
 */
import { LineSeries, PriceScaleMode, type IChartApi, type ISeriesApi } from 'lightweight-charts';
import { METHOD_TABLE } from '../../../dist/src/methods/index.js';
import type { WindowSpec } from '../../../dist/src/rpc/params.js';
import { seriesPoints, timeChart, valueOf } from '../charts.js';
import { h, recordTable } from '../dom.js';
import type { Answers, ViewSpec } from '../panel.js';

const windowsOf = (method: string) => (METHOD_TABLE.get(method)!.params.window as WindowSpec).values;
const FEE_WINDOWS = windowsOf('chain::priorityfee::fee');
const RECOMMENDATION_WINDOWS = windowsOf('chain::priorityfee::recommendation');
const BANDS = [
  { field: 'price_p25', color: '#90caf9' }, { field: 'price_p50', color: '#1e88e5' }, { field: 'price_p75', color: '#3949ab' },
  { field: 'price_p95', color: '#f57c00' }, { field: 'price_p99', color: '#c62828' },
] as const;
const TIERS = ['min', 'low', 'medium', 'high', 'very_high', 'max'] as const;
const TIER_FIELDS = ['price', 'fee', 'cu_limit', 'landing_rank_pct', 'landing_inclusion_pct'] as const;
const PER_BLOCK = 'block';
/** A base58 public key's text (the engine checks it decodes to 32 bytes). */
const KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const LOCAL_COLUMNS = ['scope', 'tx_count', 'no_priority_tx_count', ...TIERS.map((t) => `${t}_price`), 'recommended_price', 'is_valid'];

export function feesView(): ViewSpec {
  let source = PER_BLOCK;
  let window = '1m';
  let chart: IChartApi | undefined;
  const lines: ISeriesApi<'Line'>[] = [];
  let tiers: HTMLElement;
  let tables: HTMLElement;
  /** The accounts typed in: distinct keys, at most the method's 128. */
  let accounts: string[] = [];

  return {
    id: 'fees',
    title: 'Fees',
    primary: 'bands',

    mount(controls, body, changed) {
      const sourceSelect = h('select', { name: 'fee-source', onchange: () => ((source = sourceSelect.value), changed()) },
        h('option', { value: PER_BLOCK, selected: true }, 'per block'),
        ...FEE_WINDOWS.map((w) => h('option', { value: w }, `${w} windows`)));
      const windowSelect = h('select', { name: 'recommendation-window', onchange: () => ((window = windowSelect.value), changed()) },
        ...RECOMMENDATION_WINDOWS.map((w) => h('option', { value: w, selected: w === window }, w)));
      const accountsInput = h('input', {
        name: 'accounts', type: 'text', size: 48, placeholder: 'accounts to price: base58 keys, space or comma separated',
        onchange: () => {
          accounts = [...new Set(accountsInput.value.split(/[\s,]+/).filter((key) => KEY.test(key)))].slice(0, 128);
          changed();
        },
      });
      controls.append(h('label', {}, 'Bands ', sourceSelect), h('label', {}, 'Recommendation window ', windowSelect), h('label', {}, 'Local market ', accountsInput));
      const chartBox = h('div', { class: 'chart', 'data-chart': 'fees' });
      tiers = h('div', { class: 'tiers' });
      tables = h('div', { class: 'tables' });
      body.append(chartBox, tiers, tables);
      chart = timeChart(chartBox);
      chart.priceScale('right').applyOptions({ mode: PriceScaleMode.Logarithmic });
      for (const band of BANDS) lines.push(chart.addSeries(LineSeries, {
        color: band.color, lineWidth: 2, title: band.field.replace('price_', ''), priceLineVisible: false,
        priceFormat: { type: 'price', precision: 0, minMove: 1 }, // micro-lamports per compute unit: integers
      }));
    },

    queries() {
      return {
        bands: source === PER_BLOCK
          ? { method: 'chain::priorityfee::block', params: { limit: 1000 } }
          : { method: 'chain::priorityfee::fee', params: { window: source, limit: 1000 } },
        recommendation: { method: 'chain::priorityfee::recommendation', params: { window, limit: 1 } },
        top: { method: 'chain::priorityfee::top_txs', params: { window: '5m', limit: 50 } },
        ...(accounts.length > 0 ? { local: { method: 'chain::priorityfee::estimate', params: { accounts, lookback_slots: 150 } } } : {}),
      };
    },

    render(answers: Answers) {
      const bands = answers.bands ?? [];
      const time = source === PER_BLOCK ? 'timestamp' : 'window_start';
      BANDS.forEach((band, i) => lines[i]!.setData(seriesPoints(bands, time, (r) => {
        const value = valueOf(r[band.field]);
        return value === undefined || value <= 0 ? undefined : { value }; // a log scale has no zero
      })));
      chart?.timeScale().fitContent();
      const point = answers.recommendation?.[0];
      tiers.replaceChildren(
        h('h3', {}, `Recommendation ${window}${point ? ` · ${point.timestamp}${point.is_valid ? '' : ' (not valid: too few samples)'}` : ''}`),
        recordTable('tiers', TIERS.map((tier) => ({
          tier, ...Object.fromEntries(TIER_FIELDS.map((f) => [f, point?.[`${tier}_${f}`] ?? null])),
        })), [{ field: 'tier' }, ...TIER_FIELDS.map((f) => ({ field: f }))]),
      );
      tables.replaceChildren(
        h('h3', {}, source === PER_BLOCK ? 'Per block' : `${source} windows`),
        recordTable('bands', bands, [
          { field: source === PER_BLOCK ? 'slot' : 'window_start' }, { field: 'timestamp' }, { field: 'tx_count' },
          ...BANDS.map((b) => ({ field: b.field })), { field: 'price_median' }, { field: 'price_max' },
        ], 50),
        ...(answers.local ? [
          h('h3', {}, 'Local fee market (the last 150 blocks: the transactions locking any of the accounts, each, and all)'),
          recordTable('local', answers.local, LOCAL_COLUMNS.map((field) => ({ field }))),
        ] : []),
        h('h3', {}, 'Top transactions (5m)'),
        recordTable('top', answers.top ?? [], [
          { field: 'signature' }, { field: 'slot' }, { field: 'compute_unit_price' }, { field: 'compute_unit_limit' },
          { field: 'compute_units_consumed' }, { field: 'total_priority_fee' }, { field: 'program' },
        ], 50),
      );
    },

    chart: () => chart,
  };
}
