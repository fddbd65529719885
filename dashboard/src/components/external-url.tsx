/** A URL from a scraped page: a link only when it is plain http(s), otherwise inert text. */
import { safeHref } from '../safe';

export function ExternalUrl({ url, children }: { url: string; children?: string }) {
  const href = safeHref(url);
  const text = children ?? url;
  if (!href) return <span class="url">{text}</span>;
  return (
    <a class="url" href={href} target="_blank" rel="noopener noreferrer nofollow">
      {text}
    </a>
  );
}
