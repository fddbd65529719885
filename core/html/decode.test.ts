import { describe, expect, it } from 'vitest';
import { decodeBody, prescanMetaCharset } from './decode.js';
import { processPage } from './index.js';
import { undoWindows1252Misread } from './windows-1252.js';

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
/** 日本語 and テスト in Shift_JIS, and 日本語 in EUC-JP, written out byte by byte. */
const SJIS_NIHONGO = [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea];
const SJIS_TESUTO = [0x83, 0x65, 0x83, 0x58, 0x83, 0x67];
const EUCJP_NIHONGO = [0xc6, 0xfc, 0xcb, 0xdc, 0xb8, 0xec];

function page(head: string, title: number[], text: number[]): Uint8Array {
  return new Uint8Array([
    ...ascii(`<html><head>${head}<title>`), ...title, ...ascii('</title></head><body><p>'), ...text, ...ascii('</p></body></html>'),
  ]);
}

const formats = new Set(['markdown'] as const);
const url = 'https://example.jp/';

describe('decoding', () => {
  it('decodes Shift_JIS announced by the Content-Type header', async () => {
    const body = page('', SJIS_NIHONGO, [...SJIS_NIHONGO, ...SJIS_TESUTO]);
    const result = await processPage({ body, contentType: 'text/html; charset=Shift_JIS', url, formats });
    expect(result.markdown).toBe('日本語テスト');
    expect(result.metadata.title).toBe('日本語');
  });

  it('decodes Shift_JIS announced by <meta charset> when the header has no charset', async () => {
    const body = page('<meta charset="shift_jis">', SJIS_NIHONGO, SJIS_TESUTO);
    const result = await processPage({ body, contentType: 'text/html', url, formats: new Set(['markdown', 'rawHtml']) });
    expect(result.markdown).toBe('テスト');
    expect(result.rawHtml).toBe('<html><head><meta charset="shift_jis"><title>日本語</title></head><body><p>テスト</p></body></html>');
  });

  it('decodes Shift_JIS announced by <meta http-equiv=Content-Type>', async () => {
    const body = page('<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=Shift_JIS">', SJIS_NIHONGO, SJIS_TESUTO);
    expect((await processPage({ body, url, formats })).markdown).toBe('テスト');
  });

  it('decodes EUC-JP from the header', async () => {
    const body = page('', EUCJP_NIHONGO, EUCJP_NIHONGO);
    expect((await processPage({ body, contentType: 'text/html;charset="EUC-JP"', url, formats })).markdown).toBe('日本語');
  });

  it('decodes ISO-8859-1 as browsers do (windows-1252), including curly quotes', () => {
    const bytes = new Uint8Array([0x93, ...ascii('caf'), 0xe9, 0x94]);
    expect(decodeBody(bytes, 'ISO-8859-1', false)).toEqual({ text: '“café”', encoding: 'windows-1252' });
  });

  it('lets the header charset win over a contradicting meta', () => {
    const bytes = new Uint8Array([...ascii('<meta charset="shift_jis">'), 0xe9]);
    expect(decodeBody(bytes, 'windows-1252', true).text).toBe('<meta charset="shift_jis">é');
  });

  it('lets a byte order mark win over the header and strips it', () => {
    const bytes = new Uint8Array([0xff, 0xfe, ...ascii('h\0i\0')]);
    expect(decodeBody(bytes, 'shift_jis', true)).toEqual({ text: 'hi', encoding: 'utf-16le' });
  });

  it('falls back past an unknown header charset to the meta, then to UTF-8', () => {
    const meta = new Uint8Array([...ascii('<meta charset="windows-1252">'), 0xe9]);
    expect(decodeBody(meta, 'no-such-charset', true).text).toBe('<meta charset="windows-1252">é');
    expect(decodeBody(new TextEncoder().encode('<p>é</p>'), undefined, true)).toEqual({ text: '<p>é</p>', encoding: 'utf-8' });
  });

  it('reads valid UTF-8 as UTF-8 when the header or a meta declares a legacy encoding', async () => {
    const utf8 = new TextEncoder().encode('“café” — naïve');
    expect(decodeBody(utf8, 'ISO-8859-1', false)).toEqual({ text: '“café” — naïve', encoding: 'utf-8' });
    const meta = new TextEncoder().encode('<meta http-equiv="Content-Type" content="text/html; charset=windows-1256"><p>Qatar’s oldest</p>');
    expect(decodeBody(meta, undefined, true).text).toBe('<meta http-equiv="Content-Type" content="text/html; charset=windows-1256"><p>Qatar’s oldest</p>');
    const result = await processPage({ body: new TextEncoder().encode('<p>“We need urgent action”</p>'), contentType: 'text/html; charset=iso-8859-1', url, formats });
    expect(result.markdown).toBe('“We need urgent action”');
  });

  it('keeps the declared encoding when the bytes are not valid UTF-8 or are all ASCII', () => {
    // é then an ASCII letter is not a UTF-8 sequence, so the whole body is windows-1252, a UTF-8 ’ further on too;
    // ISO-2022-JP is seven-bit: all ASCII bytes, yet not ASCII text.
    expect(decodeBody(new Uint8Array([...ascii('caf'), 0xe9, ...ascii('s '), 0xe2, 0x80, 0x99]), 'windows-1252', false).text).toBe('cafés â€™');
    const jis = new Uint8Array([0x1b, 0x24, 0x42, 0x46, 0x7c, 0x4b, 0x5c, 0x38, 0x6c, 0x1b, 0x28, 0x42]);
    expect(decodeBody(jis, 'iso-2022-jp', false)).toEqual({ text: '日本語', encoding: 'iso-2022-jp' });
  });

  it('ignores metas inside comments and treats a UTF-16 meta as UTF-8', () => {
    expect(prescanMetaCharset(new Uint8Array(ascii('<!-- <meta charset="koi8-r"> --><meta charset=euc-jp>')))).toBe('euc-jp');
    expect(prescanMetaCharset(new Uint8Array(ascii('<meta charset="utf-16">')))).toBe('utf-8');
    expect(prescanMetaCharset(new Uint8Array(ascii('<p>no meta</p>')))).toBeUndefined();
  });

  it('does not apply an HTML meta to JSON or text bodies', () => {
    const bytes = new Uint8Array([...ascii('<meta charset="shift_jis"> '), 0xc3, 0xa9]);
    expect(decodeBody(bytes, undefined, false).text).toBe('<meta charset="shift_jis"> é');
  });

  it('undoes a reading of UTF-8 as windows-1252, every sequence length, and leaves right text alone', () => {
    const text = 'Grüße – “quoted” €5, 日本語 and 😀; ordinary café';
    const misread = new TextDecoder('windows-1252').decode(new TextEncoder().encode(text));
    expect(misread).not.toBe(text);
    // Node 20 decodes 0x80-0x9F as C1 controls (windows-1252.ts): both spellings come back.
    expect(undoWindows1252Misread(misread)).toBe(text);
    expect(undoWindows1252Misread(decodeBody(new TextEncoder().encode(text), undefined, false).text)).toBe(text);
    const browserSpelling = Array.from(new TextEncoder().encode('’ é'), (b) => ({ 0x80: '€', 0x99: '™', 0xa9: '©' } as Record<number, string>)[b] ?? String.fromCharCode(b)).join('');
    expect(browserSpelling).toBe('â€™ Ã©');
    expect(undoWindows1252Misread(browserSpelling)).toBe('’ é');
    // Text that was right: a lone é, "é" before ASCII, a lead character with too few continuations, an overlong form.
    for (const right of ['café', 'é and more', 'Ã', 'Ãx', 'â€', 'À€']) expect(undoWindows1252Misread(right)).toBe(right);
  });
});
