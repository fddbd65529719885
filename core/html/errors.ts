/**
 * Errors the HTML pipeline raises. They carry typed context so the API can answer 400 naming the
 * culprit, and the worker can tell "the caller's fault" from "our fault".
 */

/** A CSS selector in includeTags/excludeTags/attributesOptions that the selector engine cannot parse. */
export class InvalidSelectorError extends Error {
  readonly code = 'invalid_selector';
  constructor(
    readonly selector: string,
    /** Which option it came from, so the API can point at the field. */
    readonly option: 'includeTags' | 'excludeTags' | 'attributesOptions',
    readonly reason: string,
  ) {
    super(`Invalid CSS selector in ${option}: ${JSON.stringify(selector)} (${reason})`);
    this.name = 'InvalidSelectorError';
  }
}

/** The body is neither markup, text, JSON nor PDF (an image, an archive): nothing to convert. */
export class UnsupportedContentTypeError extends Error {
  readonly code = 'unsupported_content_type';
  constructor(readonly contentType: string) {
    super(`Cannot convert content of type ${contentType} to markdown`);
    this.name = 'UnsupportedContentTypeError';
  }
}

/** A body announced or sniffed as PDF that PDF.js cannot open (corrupt, truncated, encrypted). */
export class UnreadablePdfError extends Error {
  readonly code = 'unreadable_pdf';
  constructor(readonly reason: string) {
    super(`Cannot read PDF: ${reason}`);
    this.name = 'UnreadablePdfError';
  }
}

/**
 * Converting the page needed more heap than a conversion may use (the convert pool's per-thread
 * limit, worker/convert-pool.ts): the same page fails the same way on a retry.
 */
export class PageTooLargeError extends Error {
  readonly code = 'page_too_large';
  constructor(
    /** Size of the body handed to the conversion, bytes. */
    readonly bodyBytes: number,
    /** The heap a conversion may use, MiB. */
    readonly heapLimitMb: number,
  ) {
    super(`Cannot convert this page: its ${bodyBytes} bytes need more than the ${heapLimitMb} MiB of memory a conversion may use`);
    this.name = 'PageTooLargeError';
  }
}
