/**
 * How a worker's scrape endpoint is announced in Redis (README "Scrape path"), signed so that the
 * API calls, and sends SCRAPE_SERVICE_TOKEN and scrape inputs to, only endpoints a worker holding
 * the same token announced. Anyone who can write to Redis but lacks the token can add entries, and
 * the API ignores them.
 *
 * An announcement is a member of the sorted set `scrapeWorkersKey(queue)`, scored by the epoch ms
 * until which it holds: `<url> <until> <hmac>`, the HMAC-SHA256 (hex) of `<url>\n<until>` keyed
 * by the token.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

function signature(token: string, url: string, until: number): string {
  return createHmac('sha256', token).update(`${url}\n${until}`).digest('hex');
}

export function announcement(token: string, url: string, until: number): string {
  return `${url} ${until} ${signature(token, url, until)}`;
}

/** The endpoint URL of a member that the token signed and that still holds, else undefined. */
export function announcedUrl(token: string, member: string, now: number): string | undefined {
  const [url, untilText, sig, extra] = member.split(' ');
  const until = Number(untilText);
  if (extra !== undefined || !url || !sig || !Number.isSafeInteger(until) || until < now) return undefined;
  const expected = Buffer.from(signature(token, url, until));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected) ? url : undefined;
}
