/** A caller's target URL checked at the edge by the URL safety rules (syntax and literal addresses; names are checked where the page is fetched): the URL, or 400 `url_not_allowed`. */
import { UrlNotAllowedError } from '../core/errors.js';
import { checkUrlSyntax, UnsafeUrlError, type SafetyOptions } from '../core/url-safety.js';

export function allowedTargetUrl(url: string, safety: SafetyOptions): URL {
  try {
    return checkUrlSyntax(url, safety);
  } catch (err) {
    if (err instanceof UnsafeUrlError) throw new UrlNotAllowedError(err.message);
    throw err;
  }
}
