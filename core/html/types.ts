/** Public types of the HTML pipeline (see index.ts for the entry points). */

/** Document formats the pipeline produces; screenshots are the browser engines' business. */
export type PageFormat = 'markdown' | 'html' | 'rawHtml' | 'links' | 'images';

/** One pair of the attributes format: read `attribute` from every element matching `selector`. */
export interface AttributeSelector {
  selector: string;
  attribute: string;
}

/** The attributes format's answer for one pair, in the shape the official SDKs type. */
export interface AttributeValues extends AttributeSelector {
  /** The attribute's value on each matching element that has it, in document order. */
  values: string[];
}

export interface ProcessPageInput {
  /** Response body: raw bytes (decoded here) or an already decoded string (a browser's DOM dump). */
  body: Uint8Array | string;
  /** The response's Content-Type header, verbatim; absent means "sniff" (PDF magic, else HTML). */
  contentType?: string;
  /** Final URL after redirects: the base for relative URLs when the page has no `<base href>`. */
  url: string;
  formats: ReadonlySet<PageFormat>;
  /** CSS selectors; when given, only matching elements (with their descendants) are kept. */
  includeTags?: readonly string[];
  /** CSS selectors; matching elements are removed. Removal wins over includeTags. */
  excludeTags?: readonly string[];
  /** Prune navigation, headers, footers, sidebars, banners and ads before conversion. */
  onlyMainContent?: boolean;
  /** The attributes format: read from the whole, untouched page (selectors and pruning do not apply). */
  attributes?: readonly AttributeSelector[];
}

/**
 * Page metadata. Named keys are derived; every other `<meta name|property>` is copied under its
 * lower-cased name (`og:title`, `twitter:card`, `article:tag`, `dc.title`), as an array when the page
 * repeats it. The caller adds sourceURL, statusCode and engine.
 */
export interface PageMetadata {
  /** The media type the body was processed as, e.g. `text/html`, `application/pdf`. */
  contentType: string;
  title?: string;
  description?: string;
  /** BCP 47 tag from `<html lang>`, else the content-language meta. */
  language?: string;
  /** Absolute URL of `og:image` (the first one when repeated). */
  ogImage?: string;
  keywords?: string;
  robots?: string;
  /** Absolute URL of `<link rel=canonical>`. */
  canonical?: string;
  /** Absolute URL of the first `<link rel=icon>`-like link. */
  favicon?: string;
  /** PDF only. */
  numPages?: number;
  [key: string]: string | string[] | number | undefined;
}

export interface ProcessedPage {
  markdown?: string;
  /** Cleaned content HTML (after selectors and pruning, URLs absolute): the body's inner HTML. */
  html?: string;
  /** The decoded document, untouched. */
  rawHtml?: string;
  /** Absolute http(s) URLs linked from the whole page, fragment-free, deduplicated, in document order. */
  links?: string[];
  /**
   * Absolute http(s) image URLs of the whole page (img src and srcset, picture sources, video
   * posters, inline background images, og:image / twitter:image), deduplicated, in document order.
   */
  images?: string[];
  /** With `attributes` in the input: one entry per pair, in the input's order. */
  attributes?: AttributeValues[];
  /**
   * True when includeTags were given and matched nothing: content formats are then empty strings,
   * so the caller can warn instead of silently returning the whole page.
   */
  includeTagsMatchedNothing?: boolean;
  metadata: PageMetadata;
}

/** How the worker converts a page: processPage inline, or on its thread pool (worker/convert-pool.ts). */
export type ConvertPage = (input: ProcessPageInput) => Promise<ProcessedPage>;
