import { describe, expect, it } from 'vitest';
import { expandedSize } from './regex-size.js';

describe('expandedSize', () => {
  it.each([
    ['abc', 3],
    ['^/blog/.*$', 9],
    ['a|b+|c?', 3],
    ['[a-z]{3}', 3],
    ['[a-z]{2,10}', 10],
    ['x{5,}', 5],
    ['(?:ab){10}', 20],
    ['(a{10}){10}', 100],
    ['((a{10}){10}){10}', 1000],
    ['[]a-z{}]{4}', 4],
    ['[[:alpha:]]{4}', 4],
    ['\\d{4}-\\d{2}', 7],
    ['\\p{Greek}{3}', 3],
    ['\\x{41}{2}', 2],
    ['\\Q{1000}\\E', 6],
    ['(?i)x{3}', 3],
    ['(?P<year>\\d{4})/', 5],
    ['a{x}', 4],
  ])('%s unrolls to %i atoms', (source, size) => {
    expect(expandedSize(source)).toBe(size);
  });
});
