/** The page's single h1: names the browser tab and takes focus after client-side navigation. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { takeFocusRequest } from '../router';

export const APP_NAME = 'Pagewright';

export function PageTitle({ title, children }: { title: string; children?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · ${APP_NAME}`;
  }, [title]);
  // Screen readers otherwise stay on the link just activated, with no sign the page changed.
  useEffect(() => {
    if (takeFocusRequest()) heading.current?.focus();
  }, []);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {children ?? title}
    </h1>
  );
}
