/** The JSON shapes of /dashboard/api, as dashboard/CONTRACT.md documents them. Dates are ISO strings. */

export type Role = 'admin' | 'member';

export interface Oidc {
  enabled: boolean;
  label: string;
}

export interface Session {
  user: { id: string; email: string; role: Role };
  account: { id: string; name: string };
  csrfToken: string;
  temporalUiUrl: string | null;
  signUpOpen: boolean;
  oidc: Oidc;
}

/** What GET /session answers with its 401, so the sign-in page knows what to offer. */
export interface SignedOut {
  signUpOpen: boolean;
  oidc: Oidc;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** The account's webhook signing secret: `secret` only in the answers to reveal and rotate (admins). */
export interface WebhookSecret {
  version: number;
  rotatedAt: string | null;
  secret: string;
}

export interface CreatedKey {
  id: string;
  name: string;
  prefix: string;
  key: string;
}

export type JobKind = 'crawl' | 'batch_scrape';
export type JobStatus = 'scraping' | 'completed' | 'failed' | 'cancelled';

export interface Job {
  id: string;
  kind: JobKind;
  url: string;
  status: JobStatus;
  total: number;
  completed: number;
  failed: number;
  creditsUsed: number;
  createdAt: string;
  apiKeyPrefix: string | null;
}

export interface JobDetail extends Job {
  skipped: Record<string, number>;
  error: string | null;
  errors: { url: string; code: string; error: string }[];
  robotsBlocked: string[];
  temporalUrl: string | null;
  options: object;
}

/** A scraped document: every string in it comes from a page on the web, so it is hostile. */
export interface Doc {
  id: string;
  url: string;
  statusCode: number | null;
  title: string | null;
  description: string | null;
  markdown: string | null;
  metadata: object;
  links: string[];
}

export interface Monitor {
  id: string;
  name: string;
  status: 'active' | 'paused';
  schedule: string;
  lastRunAt: string | null;
  nextRunAt: string | null;
  createdAt: string;
}

export interface Check {
  id: string;
  status: string;
  trigger: string;
  startedAt: string | null;
  finishedAt: string | null;
  summary: { totalPages: number; same: number; changed: number; new: number; removed: number; error: number };
}

export interface CheckPage {
  url: string;
  status: string;
  diff: string | null;
}

export interface UsageDay {
  day: string;
  pages: number;
}

export interface ActivityEntry {
  at: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  credits: number;
  keyPrefix: string | null;
}

export interface Member {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
}

export interface Invite {
  id: string;
  role: Role;
  createdAt: string;
  expiresAt: string;
}
