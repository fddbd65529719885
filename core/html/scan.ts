/**
 * One walk over the untouched document that gathers what metadata, the base URL and the links
 * format need, instead of a traversal per element type.
 */
import { walkElements } from './dom.js';

export interface DocumentScan {
  metas: Element[];
  /** `<link>` elements (rel=canonical, icon...). */
  links: Element[];
  /** `<title>` elements outside SVG, in document order. */
  titles: Element[];
  /** The href of the first `<base href>`. */
  baseHref?: string;
  /** `<a>` and `<area>` elements with an href, in document order. */
  anchors: Element[];
  /** `<script type="application/ld+json">` elements: the page's structured data. */
  jsonLd: Element[];
}

export function scanDocument(doc: Document): DocumentScan {
  const scan: DocumentScan = { metas: [], links: [], titles: [], anchors: [], jsonLd: [] };
  walkElements(doc, (el) => {
    switch (el.localName) {
      case 'meta': scan.metas.push(el); break;
      case 'link': scan.links.push(el); break;
      case 'title': scan.titles.push(el); break;
      case 'base': if (scan.baseHref === undefined && el.hasAttribute('href')) scan.baseHref = el.getAttribute('href')!; break;
      case 'a': case 'area': if (el.hasAttribute('href')) scan.anchors.push(el); break;
      case 'script': if (el.getAttribute('type')?.trim().toLowerCase() === 'application/ld+json') scan.jsonLd.push(el); break;
      // An SVG's <title> is an icon's tooltip, not the page title.
      case 'svg': return false;
    }
  });
  return scan;
}
