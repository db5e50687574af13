/**
 * The time bar: a slider over the loaded block times sets `at` for every view (the market as of
 * then, no look-ahead; at the right end, live), and a replay player (play, pause, speed, stop)
 * replays the dump into a fresh engine while the views follow its streams.
 */
import { msOf } from '../charts.js';
import { h } from '../dom.js';
import type { EngineLink } from '../engine-link.js';
import type { LoadResult } from '../host-api.js';
import type { Store } from '../state.js';

const SPEEDS = [1, 10, 60, 600, Infinity] as const;

export interface Timeline {
  /** Called by the app after a load or a replay changed the span of block times. */
  spanChanged(): void;
  /** A new load replaces the engine: no replay, live. */
  reset(): void;
}

export function timelineView(root: HTMLElement, link: EngineLink, store: Store, replayed: (result: LoadResult) => void): Timeline {
  const slider = h('input', { type: 'range', name: 'at', min: 0, max: 0, value: 0, step: 1, disabled: true, 'aria-label': 'as of' });
  const label = h('output', { class: 'at' }, 'live');
  const live = h('button', { type: 'button', 'data-action': 'live', onclick: () => goLive() }, 'Live');
  const play = h('button', { type: 'button', 'data-action': 'play', disabled: true, onclick: () => void toggle() }, 'Play');
  const stop = h('button', { type: 'button', 'data-action': 'stop', disabled: true, onclick: () => void link.host.stop() }, 'Stop');
  const speed = h('select', { name: 'speed', onchange: () => void link.host.setSpeed(Number(speed.value)) },
    ...SPEEDS.map((s) => h('option', { value: String(s), selected: s === 60 }, s === Infinity ? 'max' : `${s}x`)));
  const clock = h('span', { class: 'clock' });
  root.append(h('label', {}, 'As of ', slider), label, live, h('span', { class: 'sep' }), play, speed, stop, clock);

  let debounce: ReturnType<typeof setTimeout> | undefined;
  let poll: ReturnType<typeof setInterval> | undefined;
  let playing = false;

  /** The slider's time as ISO-8601 (ms), or undefined at its right end (live). */
  const sliderAt = (): string | undefined => {
    const { firstTime } = store.state;
    if (firstTime === undefined || Number(slider.value) >= Number(slider.max)) return undefined;
    return new Date(msOf(firstTime) + Number(slider.value)).toISOString();
  };
  const showAt = () => (label.textContent = store.state.at ?? 'live');

  slider.addEventListener('input', () => {
    label.textContent = sliderAt() ?? 'live';
    clearTimeout(debounce);
    debounce = setTimeout(() => (store.update({ at: sliderAt() }), showAt()), 120);
  });

  function goLive(): void {
    slider.value = slider.max;
    store.update({ at: undefined });
    showAt();
  }

  async function toggle(): Promise<void> {
    const status = await link.host.replayStatus();
    if (playing && status?.state === 'running') {
      await link.host.pause();
      play.textContent = 'Play';
      await tick();
      return;
    }
    if (playing && (status?.state === 'paused' || status?.state === 'pausing')) {
      await link.host.resume();
      play.textContent = 'Pause';
      return;
    }
    // a new replay from the first block, into a fresh engine
    playing = true;
    link.drop();
    store.update({ streaming: true, at: undefined, firstTime: undefined, lastTime: undefined });
    slider.disabled = true;
    play.textContent = 'Pause';
    stop.disabled = false;
    await link.host.play(Number(speed.value));
    await link.renew();
    const generation = link.generation;
    poll = setInterval(() => void tick(), 250);
    const result = await link.host.replayEnded();
    clearInterval(poll);
    playing = false;
    play.textContent = 'Play';
    stop.disabled = true;
    if (link.generation !== generation) return; // a load replaced the replay's engine: its outcome is the load's
    await tick();
    clock.textContent = `replayed ${result.blocks} blocks${result.error ? `: ${result.error}` : ''}`;
    store.update({ streaming: false, firstTime: result.firstTime, lastTime: result.lastTime });
    replayed(result);
  }

  async function tick(): Promise<void> {
    const status = await link.host.replayStatus();
    if (!status) return;
    clock.textContent = `${status.state} · ${status.time ?? ''} · ${status.blocks} blocks`;
    clock.dataset.state = status.state;
    store.update({ firstTime: status.firstTime, lastTime: status.lastTime });
  }

  return {
    reset() {
      clock.textContent = '';
      delete clock.dataset.state;
      slider.value = slider.max;
      showAt();
    },
    spanChanged() {
      const { firstTime, lastTime } = store.state;
      const span = firstTime && lastTime ? msOf(lastTime) - msOf(firstTime) + 1 : 0;
      const atEnd = Number(slider.value) >= Number(slider.max);
      slider.max = String(span);
      if (atEnd) slider.value = String(span);
      slider.disabled = span === 0 || store.state.streaming;
      play.disabled = store.state.firstTime === undefined && !playing;
      showAt();
    },
  };
}
