/**
 * A captioned table inside a scroll container, so wide tables scroll on their own on a phone
 * instead of widening the page. The container is focusable and named after the caption, so
 * keyboard users can scroll it too.
 */
import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

interface Props {
  caption: string;
  headers: string[];
  /** Shown in one full-width row when there are no rows. */
  empty: string;
  rows: ComponentChildren[];
  /** Hide the caption visually when a heading right above says the same. */
  hideCaption?: boolean;
}

export function DataTable({ caption, headers, empty, rows, hideCaption }: Props) {
  const id = useId();
  return (
    <div class="table-wrap" role="region" aria-labelledby={id} tabIndex={0}>
      <table>
        <caption id={id} class={hideCaption ? 'visually-hidden' : undefined}>
          {caption}
        </caption>
        <thead>
          <tr>
            {headers.map((header) => (
              <th scope="col" key={header}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length ? (
            rows
          ) : (
            <tr>
              <td colSpan={headers.length} class="empty">
                {empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
