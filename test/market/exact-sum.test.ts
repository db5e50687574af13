/** ExactSum against bigint rational sums: correctly rounded after any sequence of adds and removes. */
import { describe, expect, it } from 'vitest';
import { ExactSum } from '../../src/market/exact-sum.js';
import { scaled, unscaled } from './exact.js';
import { mulberry32 } from '../helpers/prng.js';

describe('ExactSum', () => {
  it('is the correctly rounded sum after random adds and removes, whatever the order', () => {
    const random = mulberry32(7);
    const sum = new ExactSum();
    const held: number[] = [];
    let exact = 0n;
    for (let step = 0; step < 20_000; step++) {
      if (held.length > 0 && random() < 0.45) {
        const [x] = held.splice(Math.floor(random() * held.length), 1);
        sum.subtract(x!);
        exact -= scaled(x!);
      } else {
        const x = random() * 10 ** Math.floor(random() * 24 - 12);
        held.push(x);
        sum.add(x);
        exact += scaled(x);
      }
      if (step % 97 === 0) expect(sum.value()).toBe(unscaled(exact));
    }
    const fresh = new ExactSum();
    for (const x of [...held].reverse()) fresh.add(x);
    expect(fresh.value()).toBe(sum.value());
    for (const x of held) sum.subtract(x);
    expect(sum.value()).toBe(0);
  });

  it('rounds ties to even across partials and adds exact products', () => {
    const sum = new ExactSum();
    for (const x of [1e-16, 1, 1e16]) sum.add(x);
    expect(sum.value()).toBe(10000000000000002); // the 1e-16 breaks the tie upwards
    const products = new ExactSum();
    const random = mulberry32(3);
    let exact = 0n;
    for (let i = 0; i < 1000; i++) {
      const price = random() * 1000;
      const ns = Math.floor(random() * 86_400e9);
      products.addProduct(price, ns);
      exact += scaled(price) * BigInt(ns);
    }
    expect(products.value()).toBe(unscaled(exact));
    const copy = products.clone();
    copy.addProduct(2.5, 4, -1);
    expect(copy.value()).toBe(unscaled(exact - 10n * scaled(1)));
  });
});
