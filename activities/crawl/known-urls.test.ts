import { describe, expect, it } from 'vitest';
import { KnownUrls } from './known-urls.js';

describe('KnownUrls', () => {
  it('knows what it learnt, per crawl', () => {
    const known = new KnownUrls();
    known.learn('c1', ['a', 'b']);
    expect([known.has('c1', 'a'), known.has('c1', 'b'), known.has('c1', 'c'), known.has('c2', 'a')]).toEqual([true, true, false, false]);
  });

  it('starts a crawl over past 20,000 keys, and keeps the 32 crawls that learnt last', () => {
    const known = new KnownUrls();
    known.learn('big', Array.from({ length: 20_001 }, (_, i) => `k${i}`));
    expect([known.has('big', 'k0'), known.has('big', 'k19999'), known.has('big', 'k20000')]).toEqual([false, false, true]);
    for (let i = 0; i < 32; i++) known.learn(`c${i}`, ['x']);
    known.learn('c0', ['y']);
    known.learn('c32', ['x']);
    expect([known.has('big', 'k20000'), known.has('c0', 'x'), known.has('c1', 'x'), known.has('c2', 'x'), known.has('c32', 'x')]).toEqual([false, true, false, true, true]);
  });
});
