import { describe, expect, it } from 'vitest';
import { isDocumentUrl } from './main-root.js';

describe('isDocumentUrl', () => {
  it('names one document by a date in the path, a long numeric id or a slug of four or more words', () => {
    for (const url of [
      'http://livenews.example/Articles/2008/01/14/Rabbitohs_ready',
      'https://news.example/2024/03/',
      'http://publications.example/index.cfm?fuseaction=Articles.show&art_aid=73388',
      'https://shop.example/listing/615442107/ceramic-mug',
      'https://forum.example/showthread.php?t=186269',
      'https://www.meininger.example/wein/lvmh-mit-ordentlichem-wachstum',
      'https://blog.example/posts/how_to_write_a_parser.html',
      'https://zeitung.example/politik/%C3%BCber-die-neue-br%C3%BCcke',
    ]) expect(isDocumentUrl(url), url).toBe(true);
  });

  it('does not for hubs: a home, a category, a service page, a short path, pagination, or no URL', () => {
    for (const url of [
      'https://example.com/',
      'https://clinic.example/dental-care/',
      'https://shop.example/products/bike',
      'https://agency.example/services/hr-solutions/hr-consulting/',
      'https://news.example/category/world?page=12',
      'https://news.example/%E0%A4%A',
      'not a url',
    ]) expect(isDocumentUrl(url), url).toBe(false);
  });
});
