/**
 * Market: a pair (searchable by symbol or mint) and a window; candles with volume from
 * chain::market::ohlcv, the trailing VWAP and TWAP of the same window, the pair's candles and
 * recent trades; prices in the quote token or in USD. The VWAP and TWAP lines show the trailing
 * point in force at each candle's close (the tables list every point). The price scale fits the candles' bodies and
 * the VWAP/TWAP lines: an outlier fill's wick (which the trimmed VWAP leaves out) runs off the
 * scale instead of flattening the market into a line; the table shows its high and low.
 */
import { CandlestickSeries, HistogramSeries, LineSeries, type AutoscaleInfo, type IChartApi, type ISeriesApi } from 'lightweight-charts';
import { METHOD_TABLE } from '../../../dist/src/methods/index.js';
import type { WindowSpec } from '../../../dist/src/rpc/params.js';
import { seriesPoints, timeChart, valueOf } from '../charts.js';
import { h, recordTable, type Column } from '../dom.js';
import type { Answers, ViewSpec } from '../panel.js';

export const MARKET_WINDOWS = (METHOD_TABLE.get('chain::market::ohlcv')!.params.window as WindowSpec).values;
/** The pairs offered: every pair's 24h candles (one a day per pair), by volume. */
const PAIR_WINDOW = '24h';
/**
 * While a load or replay goes on, the tokens and pairs (every pair's candles: the costliest
 * answer of the view, and a list of up to thousands of options to rebuild) are asked again at
 * most this often; the picked pair's own answers follow every refresh.
 */
const PAIRS_EVERY_MS = 3000;

interface Pair {
  base: string;
  quote: string;
  label: string;
}

export function marketView(): ViewSpec {
  let pair: Pair | undefined;
  let pairs: Pair[] = [];
  let window = '1m';
  let usd = false;
  let last: Answers = {};
  /** The lowest and highest open or close drawn: the candles' share of the price scale. */
  let bodies: { minValue: number; maxValue: number } | undefined;
  let chart: IChartApi | undefined;
  let candles: ISeriesApi<'Candlestick'>;
  let volume: ISeriesApi<'Histogram'>;
  let vwap: ISeriesApi<'Line'>;
  let twap: ISeriesApi<'Line'>;
  let tables: HTMLElement;
  let pairInput: HTMLInputElement;
  let pairList: HTMLDataListElement;
  let changed: () => void;
  let pairsAskedAt = -Infinity;
  let listed = '';

  const pick = (text: string) => {
    const found = pairs.find((p) => p.label === text) ?? pairs.find((p) => p.label.toLowerCase().includes(text.trim().toLowerCase()));
    if (!found || found === pair) return;
    pair = found;
    pairInput.value = found.label;
    changed();
  };

  return {
    id: 'market',
    title: 'Market',
    primary: 'candles',

    mount(controls, body, onChange) {
      changed = onChange;
      pairList = h('datalist', { id: 'pairs' });
      pairInput = h('input', { type: 'search', list: 'pairs', placeholder: 'pair: symbol or mint', name: 'pair', size: 44, onchange: () => pick(pairInput.value) });
      const windowSelect = h('select', { name: 'window', onchange: () => ((window = windowSelect.value), changed()) },
        ...MARKET_WINDOWS.map((w) => h('option', { value: w, selected: w === window }, w)));
      const usdBox = h('input', { type: 'checkbox', name: 'usd', onchange: () => ((usd = usdBox.checked), draw()) });
      controls.append(h('label', {}, 'Pair ', pairInput), pairList, h('label', {}, 'Window ', windowSelect), h('label', {}, usdBox, ' USD'));
      const chartBox = h('div', { class: 'chart', 'data-chart': 'market' });
      tables = h('div', { class: 'tables' });
      body.append(chartBox, tables);
      chart = timeChart(chartBox);
      candles = chart.addSeries(CandlestickSeries, {
        upColor: '#1a9c5b', downColor: '#d64545', wickUpColor: '#1a9c5b', wickDownColor: '#d64545', borderVisible: false,
        autoscaleInfoProvider: (base: () => AutoscaleInfo | null) => (bodies ? { priceRange: bodies } : base()),
      });
      vwap = chart.addSeries(LineSeries, { color: '#2962ff', lineWidth: 2, title: 'VWAP', priceLineVisible: false });
      twap = chart.addSeries(LineSeries, { color: '#f59f00', lineWidth: 2, title: 'TWAP', priceLineVisible: false });
      volume = chart.addSeries(HistogramSeries, { color: '#90a4ae', priceFormat: { type: 'volume' }, title: 'volume' }, 1);
      chart.panes()[1]?.setHeight(90);
    },

    queries(_, following) {
      const selected = pair && { base: pair.base, quote: pair.quote };
      const askPairs = !following || !pair || performance.now() - pairsAskedAt >= PAIRS_EVERY_MS;
      if (askPairs) pairsAskedAt = performance.now();
      return {
        tokens: askPairs ? { method: 'chain::market::token', params: {} } : undefined,
        pairs: askPairs ? { method: 'chain::market::ohlcv', params: { window: PAIR_WINDOW, limit: 5000 } } : undefined,
        candles: selected && { method: 'chain::market::ohlcv', params: { ...selected, window, limit: 1000 } },
        vwap: selected && { method: 'chain::market::vwap', params: { ...selected, window, limit: 1000 } },
        twap: selected && { method: 'chain::market::twap', params: { ...selected, window, limit: 1000 } },
        trades: selected && { method: 'chain::market::trades', params: { ...selected, limit: 100 } },
      };
    },

    render(answers: Answers) {
      pairs = pairsOf(answers.pairs ?? [], answers.tokens ?? []);
      const labels = pairs.map((p) => p.label).join('\n');
      if (labels !== listed) pairList.replaceChildren(...pairs.map((p) => h('option', { value: p.label })));
      listed = labels;
      if (pairs.length > 0 && !pairs.some((p) => p.label === pair?.label)) {
        pair = pairs[0]; // the busiest pair, until one is picked
        pairInput.value = pair!.label;
        changed(); // now ask for the pair's own answers
        return;
      }
      last = answers;
      draw();
    },

    chart: () => chart,
  };

  /** Draws the last answers, in USD or in the quote token. */
  function draw(): void {
    const answers = last;
    const suffix = usd ? '_usd' : '';
    const bars = seriesPoints(answers.candles ?? [], 'window_start', (c) => {
      const [open, high, low, close] = ['open', 'high', 'low', 'close'].map((f) => valueOf(c[f + suffix]));
      return open === undefined || high === undefined || low === undefined || close === undefined ? undefined : { open, high, low, close };
    });
    const ends = bars.flatMap((b) => [b.open, b.close]);
    bodies = ends.length > 0 ? { minValue: Math.min(...ends), maxValue: Math.max(...ends) } : undefined;
    candles.setData(bars);
    volume.setData(seriesPoints(answers.candles ?? [], 'window_start', (c) => {
      const value = valueOf(usd ? c.volume_usd : c.quote_volume);
      return value === undefined ? undefined : { value, color: Number(c.close) >= Number(c.open) ? '#a5d6a7' : '#ef9a9a' };
    }));
    const candleList = answers.candles ?? [];
    const vwapAt = closingPoints(answers.vwap ?? [], candleList);
    const twapAt = closingPoints(answers.twap ?? [], candleList);
    vwap.setData(seriesPoints(candleList, 'window_start', (c) => line(vwapAt.get(c)?.[`vwap${suffix}`])));
    twap.setData(seriesPoints(candleList, 'window_start', (c) => line(twapAt.get(c)?.[`twap${suffix}`])));
    chart?.timeScale().fitContent();
    const price = (f: string): Column => ({ field: f + suffix, label: usd ? `${f} (USD)` : f });
    tables.replaceChildren(
      h('h3', {}, `Candles ${window}${pair ? ` · ${pair.label}` : ''}`),
      recordTable('candles', answers.candles ?? [], [
        { field: 'window_start' }, price('open'), price('high'), price('low'), price('close'),
        { field: 'base_volume' }, usd ? { field: 'volume_usd', label: 'volume (USD)' } : { field: 'quote_volume' }, { field: 'data_points', label: 'trades' },
      ], 50),
      h('h3', {}, `VWAP / TWAP ${window}`),
      recordTable('vwap', answers.vwap ?? [], [{ field: 'timestamp' }, { field: 'slot' }, price('vwap'), price('current_price'), { field: 'data_points' }], 20),
      recordTable('twap', answers.twap ?? [], [{ field: 'timestamp' }, { field: 'slot' }, price('twap'), { field: 'data_points' }], 20),
      h('h3', {}, 'Recent trades'),
      recordTable('trades', answers.trades ?? [], [
        { field: 'timestamp' }, { field: 'slot' }, { field: 'is_buy', label: 'buy' }, { field: 'price' },
        { field: 'base_volume' }, { field: 'quote_volume' }, { field: 'signature' },
      ], 100),
    );
  }
}

/**
 * For each candle, the trailing point in force at its close: the newest of `points` before the
 * candle's end (both lists newest first, as answered; one pass). The lines are drawn at the
 * candles' times: the chart's time axis spaces its points evenly, so per-block points beside
 * longer candles would squeeze the candles of the span the points do not cover.
 */
function closingPoints(points: readonly Record<string, unknown>[], candles: readonly Record<string, unknown>[]): Map<Record<string, unknown>, Record<string, unknown>> {
  const out = new Map<Record<string, unknown>, Record<string, unknown>>();
  let j = 0;
  for (const candle of candles) {
    const end = String(candle.window_end);
    while (j < points.length && String(points[j]!.timestamp) >= end) j++;
    const point = points[j];
    if (point && String(point.timestamp) >= String(candle.window_start)) out.set(candle, point);
  }
  return out;
}

const line = (text: unknown) => {
  const value = valueOf(text);
  return value === undefined ? undefined : { value };
};

/** The pairs of the 24h candles, by traded volume (USD when known), labelled by symbol and mint. */
function pairsOf(candles: readonly Record<string, unknown>[], tokens: readonly Record<string, unknown>[]): Pair[] {
  const symbols = new Map(tokens.map((t) => [String(t.mint), String(t.symbol)]));
  const volume = new Map<string, number>();
  for (const c of candles) {
    const key = `${c.base} ${c.quote}`;
    volume.set(key, (volume.get(key) ?? 0) + Number(c.volume_usd ?? c.quote_volume ?? 0));
  }
  return [...volume.entries()].sort((a, b) => b[1] - a[1]).map(([key]) => {
    const [base, quote] = key.split(' ') as [string, string];
    return { base, quote, label: `${symbols.get(base) || short(base)}/${symbols.get(quote) || short(quote)} · ${base} ${quote}` };
  });
}

const short = (mint: string) => `${mint.slice(0, 4)}…${mint.slice(-4)}`;
