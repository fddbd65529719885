/**
 * History API routing under /dashboard. Links stay real <a href> elements (middle-click, "open in
 * new tab" and keyboard all work); one document-level listener turns plain left clicks on
 * in-app links into pushState navigation.
 */
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/dashboard';

const listeners = new Set<() => void>();
// Set by client-side navigation so the next page moves focus to its heading; a first load keeps
// the browser's own focus handling.
let focusPending = false;

/** In-app paths: everything under /dashboard except the API and the built assets. */
export function isAppPath(pathname: string): boolean {
  if (pathname !== BASE && !pathname.startsWith(`${BASE}/`)) return false;
  return !pathname.startsWith(`${BASE}/api/`) && !pathname.startsWith(`${BASE}/assets/`);
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) {
    history.replaceState(null, '', to);
  } else {
    history.pushState(null, '', to);
    window.scrollTo(0, 0);
    focusPending = true;
  }
  notify();
}

/** True once after a client-side navigation: the page heading should take focus. */
export function takeFocusRequest(): boolean {
  const pending = focusPending;
  focusPending = false;
  return pending;
}

function notify(): void {
  for (const listener of listeners) listener();
}

function onPopState(): void {
  focusPending = true;
  notify();
}

function onClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = event.target instanceof Element ? event.target.closest('a') : null;
  if (!anchor || !anchor.hasAttribute('href') || anchor.hasAttribute('download')) return;
  if (anchor.target && anchor.target !== '_self') return;
  const url = new URL(anchor.href);
  if (url.origin !== location.origin || !isAppPath(url.pathname)) return;
  // Same page, different fragment (the skip link): the browser scrolls and focuses natively.
  if (url.pathname === location.pathname && url.search === location.search && url.hash) return;
  event.preventDefault();
  navigate(url.pathname + url.search + url.hash);
}

export function startRouter(): void {
  window.addEventListener('popstate', onPopState);
  document.addEventListener('click', onClick);
}

export interface Location {
  path: string;
  query: URLSearchParams;
}

function read(): Location {
  const path = location.pathname.length > 1 ? location.pathname.replace(/\/+$/, '') : location.pathname;
  return { path, query: new URLSearchParams(location.search) };
}

/** The current path (trailing slash removed) and query; re-renders on every navigation. */
export function useLocation(): Location {
  const [current, setCurrent] = useState(read);
  useEffect(() => {
    const listener = () => setCurrent(read());
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return current;
}
