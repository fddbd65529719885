import { describe, expect, it } from 'vitest';
import { announcedUrl, announcement } from './scrape-announcement.js';

describe('scrape endpoint announcements', () => {
  const url = 'http://worker-1:3003';
  const now = 1_800_000_000_000;

  it('gives back the URL of an entry signed with the token that still holds', () => {
    expect(announcedUrl('token', announcement('token', url, now + 15_000), now)).toBe(url);
  });

  it.each([
    ['signed with another token', announcement('other', url, now + 15_000)],
    ['expired', announcement('token', url, now - 1)],
    ['a bare URL', url],
    ['with its URL changed', announcement('token', url, now + 15_000).replace('worker-1', 'evil')],
    ['with its time extended', announcement('token', url, now + 15_000).replace(String(now + 15_000), String(now + 99_000))],
    ['with a field added', `${announcement('token', url, now + 15_000)} x`],
  ])('ignores an entry %s', (_what, member) => {
    expect(announcedUrl('token', member, now)).toBeUndefined();
  });
});
