/** The dashboard's pages and their paths: one table, so links and the router agree. */
import { BASE } from './router';
import type { JobKind } from './types';

export type Route =
  | { page: 'home' }
  | { page: 'sign-in' }
  | { page: 'invite'; token: string }
  | { page: 'keys' }
  | { page: 'jobs'; kind: JobKind }
  | { page: 'job'; id: string }
  | { page: 'monitors' }
  | { page: 'monitor'; id: string }
  | { page: 'check'; id: string; checkId: string }
  | { page: 'playground' }
  | { page: 'usage' }
  | { page: 'activity' }
  | { page: 'team' }
  | { page: 'billing' }
  | { page: 'not-found' };

export const paths = {
  signIn: `${BASE}/sign-in`,
  keys: `${BASE}/keys`,
  crawls: `${BASE}/crawls`,
  batchScrapes: `${BASE}/batch-scrapes`,
  monitors: `${BASE}/monitors`,
  playground: `${BASE}/playground`,
  usage: `${BASE}/usage`,
  activity: `${BASE}/activity`,
  team: `${BASE}/team`,
  billing: `${BASE}/billing`,
  job: (id: string) => `${BASE}/jobs/${encodeURIComponent(id)}`,
  monitor: (id: string) => `${BASE}/monitors/${encodeURIComponent(id)}`,
  check: (id: string, checkId: string) =>
    `${BASE}/monitors/${encodeURIComponent(id)}/checks/${encodeURIComponent(checkId)}`,
};

const fixed: Record<string, Route> = {
  [BASE]: { page: 'home' },
  [paths.signIn]: { page: 'sign-in' },
  [paths.keys]: { page: 'keys' },
  [paths.crawls]: { page: 'jobs', kind: 'crawl' },
  [paths.batchScrapes]: { page: 'jobs', kind: 'batch_scrape' },
  [paths.monitors]: { page: 'monitors' },
  [paths.playground]: { page: 'playground' },
  [paths.usage]: { page: 'usage' },
  [paths.activity]: { page: 'activity' },
  [paths.team]: { page: 'team' },
  [paths.billing]: { page: 'billing' },
};

export function matchRoute(path: string): Route {
  const known = fixed[path];
  if (known) return known;
  if (!path.startsWith(`${BASE}/`)) return { page: 'not-found' };
  const parts = path.slice(BASE.length + 1).split('/').map(decode);
  if (parts.includes(null)) return { page: 'not-found' };
  const [first, second, third, fourth] = parts as string[];
  if (parts.length === 2 && first === 'invite') return { page: 'invite', token: second };
  if (parts.length === 2 && first === 'jobs') return { page: 'job', id: second };
  if (parts.length === 2 && first === 'monitors') return { page: 'monitor', id: second };
  if (parts.length === 4 && first === 'monitors' && third === 'checks') return { page: 'check', id: second, checkId: fourth };
  return { page: 'not-found' };
}

function decode(part: string): string | null {
  try {
    const value = decodeURIComponent(part);
    return value ? value : null;
  } catch {
    return null;
  }
}

/** Pages anyone may open; every other page needs a session. */
export const isPublic = (route: Route): boolean => route.page === 'sign-in' || route.page === 'invite';
