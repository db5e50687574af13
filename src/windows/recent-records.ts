import { lowerBoundBy } from './lower-bound.js';

/**
 * The newest records of a history, kept in memory so that live answers need no store read: the
 * store holds them all, memory the newest `capacity` (a method's largest limit), or every one
 * while its owner says so (the database has not started: nowhere else answers them).
 */
export class RecentRecords<T> {
  /** Oldest first. */
  #items: T[] = [];
  /** Whether every record of the history is held (then memory answers any limit). */
  #complete: boolean;

  /** `complete`: whether the history starts with the first record added (false: older ones are stored only). */
  constructor(readonly capacity: number, complete = true) {
    this.#complete = complete;
  }

  /** Adds records newer than every one held; `keepAll`: drops none (else only the newest `capacity` stay). */
  push(records: readonly T[], keepAll = false): void {
    this.#items.push(...records);
    const excess = this.#items.length - this.capacity;
    if (excess > 0 && !keepAll) {
      this.#items.splice(0, excess);
      this.#complete = false;
    }
  }

  /** The records held. */
  get size(): number {
    return this.#items.length;
  }

  /** How many of the records held come before `x` by `key` (records are held in ascending order of it). */
  before<K extends bigint | number>(key: (record: T) => K, x: K): number {
    return lowerBoundBy(this.#items, key, x);
  }

  /** The last `limit` of the first `end` held, oldest first; undefined when older ones than memory holds are needed. */
  last(limit: number, end = this.#items.length): T[] | undefined {
    if (end < limit && !this.#complete) return undefined;
    return this.#items.slice(Math.max(0, end - limit), end);
  }

  /** The newest `limit`, newest first (as a list method answers); undefined as for `last`. */
  newest(limit: number): T[] | undefined {
    return this.last(limit)?.reverse();
  }
}
