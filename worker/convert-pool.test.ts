import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articlePage } from '../bench/html-fixture.js';
import { InvalidSelectorError, PageTooLargeError, UnsupportedContentTypeError } from '../core/html/errors.js';
import type { PageFormat, ProcessPageInput } from '../core/html/types.js';
import { convertInline, createConvertPool, defaultConvertThreads, usableCores, type ConvertPool } from './convert-pool.js';

const url = 'https://example.com/articles/bench';
const allFormats = new Set<PageFormat>(['markdown', 'html', 'rawHtml', 'links']);
const page = articlePage(20_000);
const bytes = () => new TextEncoder().encode(page);

describe('convert pool', () => {
  let pool: ConvertPool;
  beforeAll(() => {
    pool = createConvertPool({ threads: 2 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('converts a page exactly as the inline pipeline does', async () => {
    const input: Omit<ProcessPageInput, 'body'> = { contentType: 'text/html; charset=utf-8', url, formats: allFormats, onlyMainContent: true, excludeTags: ['figure'] };
    const [threaded, inline] = await Promise.all([pool.convert({ ...input, body: bytes() }), convertInline({ ...input, body: bytes() })]);
    expect(threaded).toEqual(inline);
    expect(threaded.markdown?.length).toBeGreaterThan(5000);
    expect(threaded.links?.length).toBeGreaterThan(20);
  });

  it('accepts a decoded string body', async () => {
    const input = { body: '<h1>Hi</h1><p><a href="/a">a</a></p>', url, formats: new Set<PageFormat>(['markdown', 'links']) };
    expect(await pool.convert(input)).toEqual({ markdown: '# Hi\n\n[a](https://example.com/a)', links: ['https://example.com/a'], metadata: { contentType: 'text/html' } });
  });

  it('moves a body that owns its buffer to the thread instead of copying it', async () => {
    const body = bytes();
    const converting = pool.convert({ body, contentType: 'text/html', url, formats: new Set(['markdown']) });
    expect(body.byteLength).toBe(0);
    expect((await converting).markdown).toContain('# Benchmark article');
  });

  it('copies a small Buffer that shares its memory, leaving its neighbours intact', async () => {
    const neighbour = Buffer.from('neighbour');
    const body = Buffer.from('<p>pooled</p>');
    expect(body.buffer).toBe(neighbour.buffer);
    const result = await pool.convert({ body, contentType: 'text/html', url, formats: new Set(['markdown']) });
    expect(result.markdown).toBe('pooled');
    expect(body.toString()).toBe('<p>pooled</p>');
    expect(neighbour.toString()).toBe('neighbour');
  });

  it('rejects an invalid selector with an InvalidSelectorError naming it', async () => {
    const input = { body: page, contentType: 'text/html', url, formats: new Set<PageFormat>(['markdown']), excludeTags: ['nav', 'div[[['] };
    const failure = (err: unknown) => err as InvalidSelectorError;
    const inlineError = await convertInline(input).then(() => undefined, failure);
    const error = await pool.convert(input).then(() => undefined, failure);
    expect(error).toBeInstanceOf(InvalidSelectorError);
    expect(error?.name).toBe('InvalidSelectorError');
    expect(error?.message).toBe(inlineError?.message);
    expect(error?.message).toBe('Invalid CSS selector in excludeTags: "div[[[" (Bad combinator.)');
    expect(error?.selector).toBe('div[[[');
    expect(error?.option).toBe('excludeTags');
    expect(error?.code).toBe('invalid_selector');
  });

  it('rejects content it cannot convert with the pipeline error', async () => {
    const error = await pool.convert({ body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]), contentType: 'image/png', url, formats: new Set(['markdown']) }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(UnsupportedContentTypeError);
    expect((error as UnsupportedContentTypeError).contentType).toBe('image/png');
  });
});

describe('convert pool lifecycle', () => {
  it('finishes conversions already queued when closed, then refuses new ones', async () => {
    const pool = createConvertPool({ threads: 1 });
    const queued = [1, 2, 3].map(() => pool.convert({ body: bytes(), contentType: 'text/html', url, formats: new Set(['markdown']) }));
    await pool.close();
    const results = await Promise.all(queued);
    expect(results.map((r) => r.markdown?.includes('# Benchmark article'))).toEqual([true, true, true]);
    await expect(pool.convert({ body: '<p>late</p>', url, formats: new Set(['markdown']) })).rejects.toThrow('The convert pool is closed');
    await pool.close();
  });

  it('refuses a pool size that is not a positive integer', () => {
    expect(() => createConvertPool({ threads: 0 })).toThrow('threads must be a positive integer, got 0');
  });

  it('sizes the default pool at one thread per core, and no more than pages in flight', () => {
    expect(defaultConvertThreads(2, 2)).toBe(2);
    expect(defaultConvertThreads(16, 2)).toBe(2);
    expect(defaultConvertThreads(2, 1)).toBe(1);
    expect(defaultConvertThreads(4, 8)).toBe(4);
    expect(defaultConvertThreads(16, 8)).toBe(8);
  });

  it('counts the cores a cgroup CPU limit leaves, rounded up, and the machine\'s without a limit', () => {
    const files = (entries: Record<string, string>) => (path: string) => entries[path];
    expect(usableCores(files({ '/sys/fs/cgroup/cpu.max': 'max 100000\n' }), 8)).toBe(8);
    expect(usableCores(files({ '/sys/fs/cgroup/cpu.max': '150000 100000\n' }), 8)).toBe(2);
    expect(usableCores(files({ '/sys/fs/cgroup/cpu.max': '50000 100000\n' }), 8)).toBe(1);
    expect(usableCores(files({ '/sys/fs/cgroup/cpu.max': '800000 100000\n' }), 4)).toBe(4);
    expect(usableCores(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '200000\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' }), 8)).toBe(2);
    expect(usableCores(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' }), 8)).toBe(8);
    expect(usableCores(files({}), 3)).toBe(3);
  });
});

describe('convert pool memory limit', () => {
  it('fails a page that outgrows a thread’s heap alone, and converts the next page on a fresh thread', async () => {
    const small = createConvertPool({ threads: 1, maxOldGenerationMb: 24 });
    try {
      const huge = new TextEncoder().encode(articlePage(4_000_000));
      await expect(small.convert({ body: huge, contentType: 'text/html', url, formats: allFormats })).rejects.toBeInstanceOf(PageTooLargeError);
      const next = await small.convert({ body: bytes(), contentType: 'text/html', url, formats: new Set(['markdown']) });
      expect(next.markdown).toContain('# Benchmark article');
    } finally {
      await small.close();
    }
  }, 60_000);
});
