import { describe, expect, it } from 'vitest';
import { changedFields, markdownDiff, sameContent } from './change-tracking.js';

describe('change tracking comparisons', () => {
  it('counts a whitespace-only change as the same content, and any other as a change', () => {
    expect(sameContent('# Title\n\nSome  text\nhere.', '# Title\n\n   Some text here.\n')).toBe(true);
    expect(sameContent('# Title\n\nSome text here.', '# Title\n\nSome text there.')).toBe(false);
  });

  it('returns the unified diff and its parsed form, with line numbers', () => {
    const diff = markdownDiff('# Pricing\n\nPro plan: $10/month\n\nContact us\n', '# Pricing\n\nPro plan: $12/month\n\nContact us\n');
    expect(diff.text).toContain('--- previous.md\n+++ current.md\n@@ -1,5 +1,5 @@\n # Pricing\n \n-Pro plan: $10/month\n+Pro plan: $12/month\n \n Contact us\n');
    expect(diff.json).toEqual({
      files: [
        {
          from: 'previous.md',
          to: 'current.md',
          chunks: [
            {
              content: '@@ -1,5 +1,5 @@',
              changes: [
                { type: 'normal', normal: true, ln1: 1, ln2: 1, content: ' # Pricing' },
                { type: 'normal', normal: true, ln1: 2, ln2: 2, content: ' ' },
                { type: 'del', del: true, ln: 3, content: '-Pro plan: $10/month' },
                { type: 'add', add: true, ln: 3, content: '+Pro plan: $12/month' },
                { type: 'normal', normal: true, ln1: 4, ln2: 4, content: ' ' },
                { type: 'normal', normal: true, ln1: 5, ln2: 5, content: ' Contact us' },
              ],
            },
          ],
        },
      ],
    });
  });

  it('lists the top-level fields that differ between two extractions', () => {
    expect(changedFields({ price: 10, name: 'Pro', tags: ['a'] }, { price: 12, name: 'Pro', tags: ['a', 'b'], extra: true })).toEqual({
      price: { previous: 10, current: 12 },
      tags: { previous: ['a'], current: ['a', 'b'] },
      extra: { previous: null, current: true },
    });
    expect(changedFields({ a: 1 }, { a: 1 })).toEqual({});
  });
});
