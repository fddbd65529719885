/** Display formatting in the reader's locale. */

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** A "YYYY-MM-DD" usage day: a calendar date, so shown without a time and without a time-zone shift. */
export function formatDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : date.toLocaleDateString(undefined, { timeZone: 'UTC' });
}

export const formatNumber = (value: number): string => value.toLocaleString();

const kindNames = { crawl: 'Crawl', batch_scrape: 'Batch scrape' } as const;
export const kindName = (kind: keyof typeof kindNames): string => kindNames[kind];

/** Status words from the API ("skipped_overlap") as readers expect them ("Skipped overlap"). */
export function humanize(value: string): string {
  const words = value.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
