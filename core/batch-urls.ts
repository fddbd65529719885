/** A batch scrape's URL list as its frontier: each URL checked by the URL safety rules, the same page once (first spelling). */
import { urlKey } from './url-key.js';
import { checkUrlSyntax, UnsafeUrlError, type SafetyOptions } from './url-safety.js';

export interface BatchFrontier {
  urls: { urlKey: string; url: URL }[];
  invalid: { index: number; raw: string; message: string }[];
}

export function batchFrontier(raw: readonly string[], safety: SafetyOptions): BatchFrontier {
  const valid = new Map<string, URL>();
  const invalid: BatchFrontier['invalid'] = [];
  raw.forEach((text, index) => {
    try {
      const url = checkUrlSyntax(text, safety);
      const key = urlKey(url);
      if (!valid.has(key)) valid.set(key, url);
    } catch (err) {
      if (!(err instanceof UnsafeUrlError)) throw err;
      invalid.push({ index, raw: text, message: err.message });
    }
  });
  return { urls: [...valid].map(([key, url]) => ({ urlKey: key, url })), invalid };
}
