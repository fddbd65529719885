import { describe, expect, it } from 'vitest';
import { lanePlan, laneSlots } from './lanes.js';

describe('lanePlan', () => {
  it('splits the default 32 pages in flight over four lanes of eight', () => {
    expect(lanePlan({}, 15000)).toEqual({ count: 4, width: 8, delayMs: 0, maxMs: 15000 });
  });
  it('splits maxConcurrency over as few lanes as fit, evenly', () => {
    expect(lanePlan({ maxConcurrency: 16 }, 15000)).toEqual({ count: 2, width: 8, delayMs: 0, maxMs: 15000 });
    expect(lanePlan({ maxConcurrency: 10 }, 15000)).toEqual({ count: 2, width: 5, delayMs: 0, maxMs: 15000 });
    expect(lanePlan({ maxConcurrency: 3 }, 15000)).toEqual({ count: 1, width: 3, delayMs: 0, maxMs: 15000 });
  });
  it('runs one page at a time when the caller or robots.txt asks for a delay, taking the larger one', () => {
    expect(lanePlan({ delay: 1.5, maxConcurrency: 50 }, 15000)).toEqual({ count: 1, width: 1, delayMs: 1500, maxMs: 15000 });
    expect(lanePlan({ delay: 1 }, 15000, 3000)).toEqual({ count: 1, width: 1, delayMs: 3000, maxMs: 15000 });
    expect(lanePlan({}, 15000, 500)).toEqual({ count: 1, width: 1, delayMs: 500, maxMs: 15000 });
  });
});

describe('laneSlots', () => {
  it('gives a worker enough lanes for its WORKER_CONCURRENCY, at least two', () => {
    expect([1, 2, 8, 16, 17, 32].map(laneSlots)).toEqual([2, 2, 2, 2, 3, 4]);
  });
});
