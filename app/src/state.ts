/**
 * What every view shares: the as-of time (`at`, undefined = live), the span of block times loaded, and whether a replay drives the views. Views listen for changes.
 */
export interface AppState {
  /** ISO-8601 as-of time for every query; undefined answers live. */
  at?: string;
  /** First and newest block times loaded (ISO-8601, ns). */
  firstTime?: string;
  lastTime?: string;
  /** True while a replay runs: views follow its streams instead of asking as of a time. */
  streaming: boolean;
}

type Listener = (state: AppState, changed: ReadonlySet<keyof AppState>) => void;

export class Store {
  #state: AppState = { streaming: false };
  #listeners = new Set<Listener>();

  get state(): Readonly<AppState> {
    return this.#state;
  }

  update(patch: Partial<AppState>): void {
    const changed = new Set<keyof AppState>();
    for (const key of Object.keys(patch) as (keyof AppState)[]) {
      if (this.#state[key] !== patch[key]) changed.add(key);
    }
    if (changed.size === 0) return;
    this.#state = { ...this.#state, ...patch };
    for (const listener of this.#listeners) listener(this.#state, changed);
  }

  listen(listener: Listener): void {
    this.#listeners.add(listener);
  }
}
