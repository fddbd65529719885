/**
 * The bodies of /dashboard/api's successful answers, as JSON Schemas: written once, here. The routes
 * declare them as their `response` (api/dashboard/define.ts), which types each handler's return
 * value and feeds the fuzz run's document (scripts/fuzz/dashboard-doc.ts); the dashboard derives
 * its types from them (dashboard/src/types.ts). Error answers keep the API's envelope and are not
 * described here.
 *
 * This file imports nothing: the dashboard's type check reads it (type-only, erased from the
 * bundle), and must not pull the server's modules in. So the enums below are written out; the
 * handlers' types (JobKind, UserRole, ...) must fit them or the routes do not compile.
 *
 * `additionalProperties: false` where a dashboard handler builds the object itself; dates are ISO
 * strings.
 */

const date = { type: 'string', format: 'date-time' } as const;
const dateOrNull = { type: ['string', 'null'], format: 'date-time' } as const;
const stringOrNull = { type: ['string', 'null'] } as const;
const count = { type: 'integer', minimum: 0 } as const;
const strings = { type: 'array', items: { type: 'string' } } as const;

export const roleSchema = { enum: ['admin', 'member'] } as const;

/** What GET /session also says when signed out (its 401 body), so the sign-in page knows what to offer. */
export const signedOutSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['signUpOpen', 'oidc'],
  properties: {
    signUpOpen: { type: 'boolean' },
    oidc: { type: 'object', additionalProperties: false, required: ['enabled', 'label'], properties: { enabled: { type: 'boolean' }, label: { type: 'string' } } },
  },
} as const;

/** GET /session, and signing in, up or through an invite. */
export const sessionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['user', 'account', 'csrfToken', 'temporalUiUrl', ...signedOutSchema.required],
  properties: {
    user: { type: 'object', additionalProperties: false, required: ['id', 'email', 'role'], properties: { id: { type: 'string' }, email: { type: 'string' }, role: roleSchema } },
    account: { type: 'object', additionalProperties: false, required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string' } } },
    csrfToken: { type: 'string' },
    temporalUiUrl: stringOrNull,
    ...signedOutSchema.properties,
  },
} as const;

export const apiKeySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'prefix', 'createdAt', 'lastUsedAt', 'revokedAt'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, prefix: { type: 'string' }, createdAt: date, lastUsedAt: dateOrNull, revokedAt: dateOrNull },
} as const;

export const keysAnswer = { type: 'object', additionalProperties: false, required: ['keys'], properties: { keys: { type: 'array', items: apiKeySchema } } } as const;

/** POST /keys: `key` is the full key, in this answer only. */
export const createdKeySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'prefix', 'key'],
  properties: { id: { type: 'string' }, name: { type: 'string' }, prefix: { type: 'string' }, key: { type: 'string' } },
} as const;

export const revokedKeySchema = { type: 'object', additionalProperties: false, required: ['id', 'revokedAt'], properties: { id: { type: 'string' }, revokedAt: dateOrNull } } as const;

/** GET /webhook-secret: when the secret last changed, for everyone. */
export const webhookSecretStateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['version', 'rotatedAt'],
  properties: { version: { type: 'integer' }, rotatedAt: dateOrNull },
} as const;

/** The secret itself: only the answers to reveal and rotate (admins). */
export const webhookSecretSchema = {
  ...webhookSecretStateSchema,
  required: [...webhookSecretStateSchema.required, 'secret'],
  properties: { ...webhookSecretStateSchema.properties, secret: { type: 'string' } },
} as const;

export const jobKindSchema = { enum: ['crawl', 'batch_scrape'] } as const;
export const jobStatusSchema = { enum: ['scraping', 'completed', 'failed', 'cancelled'] } as const;

/** A crawl or batch scrape as the lists show it (jobs/read.ts jobSummary). */
export const jobSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'kind', 'url', 'status', 'total', 'completed', 'failed', 'creditsUsed', 'createdAt', 'apiKeyPrefix'],
  properties: {
    id: { type: 'string' },
    kind: jobKindSchema,
    url: { type: 'string' },
    status: jobStatusSchema,
    total: count,
    completed: count,
    failed: count,
    creditsUsed: count,
    createdAt: date,
    apiKeyPrefix: stringOrNull,
  },
} as const;

export const jobDetailSchema = {
  ...jobSchema,
  required: [...jobSchema.required, 'skipped', 'error', 'errors', 'robotsBlocked', 'temporalUrl', 'options'],
  properties: {
    ...jobSchema.properties,
    /** Pages left out, by reason. */
    skipped: { type: 'object', additionalProperties: count },
    error: stringOrNull,
    errors: {
      type: 'array',
      items: { type: 'object', additionalProperties: false, required: ['url', 'code', 'error'], properties: { url: { type: 'string' }, code: stringOrNull, error: { type: 'string' } } },
    },
    robotsBlocked: strings,
    temporalUrl: stringOrNull,
    /** The job's request options, as stored. */
    options: { type: 'object' },
  },
} as const;

export const jobsAnswer = { type: 'object', additionalProperties: false, required: ['jobs'], properties: { jobs: { type: 'array', items: jobSchema } } } as const;
export const jobDetailAnswer = { type: 'object', additionalProperties: false, required: ['job'], properties: { job: jobDetailSchema } } as const;
export const jobAnswer = { type: 'object', additionalProperties: false, required: ['job'], properties: { job: jobSchema } } as const;

/** A scraped document: every string in it comes from a page on the web, so it is hostile. */
export const docSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'url', 'statusCode', 'title', 'description', 'markdown', 'metadata', 'links'],
  properties: {
    id: { type: 'string' },
    url: { type: 'string' },
    statusCode: { type: ['integer', 'null'] },
    title: stringOrNull,
    description: stringOrNull,
    /** Empty when the page had none. */
    markdown: { type: 'string' },
    metadata: { type: 'object' },
    links: strings,
  },
} as const;

export const documentsAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['documents', 'total'],
  properties: { documents: { type: 'array', items: docSchema }, total: count },
} as const;

export const monitorSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'status', 'schedule', 'lastRunAt', 'nextRunAt', 'createdAt', 'pausedReason'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    status: { enum: ['active', 'paused'] },
    /** As it was written ("every day at 9am"), or `<cron> (<timezone>)`. */
    schedule: { type: 'string' },
    lastRunAt: dateOrNull,
    nextRunAt: dateOrNull,
    createdAt: date,
    pausedReason: stringOrNull,
  },
} as const;

/**
 * A monitor check as the v2 API answers it (api/monitor-views.ts checkView): only the fields the
 * dashboard reads are listed, the rest are the v2 API's and pass through, hence no
 * `additionalProperties: false`.
 */
export const checkSchema = {
  type: 'object',
  required: ['id', 'status', 'trigger', 'startedAt', 'finishedAt', 'summary'],
  properties: {
    id: { type: 'string' },
    status: { type: 'string' },
    trigger: { type: 'string' },
    startedAt: dateOrNull,
    finishedAt: dateOrNull,
    summary: {
      type: 'object',
      additionalProperties: false,
      required: ['totalPages', 'same', 'changed', 'new', 'removed', 'error'],
      properties: { totalPages: count, same: count, changed: count, new: count, removed: count, error: count },
    },
  },
} as const;

/** One page of a check; `diff` is the unified diff's text when the page changed. */
export const checkPageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'status', 'diff'],
  properties: { url: { type: 'string' }, status: { type: 'string' }, diff: stringOrNull },
} as const;

export const monitorsAnswer = { type: 'object', additionalProperties: false, required: ['monitors'], properties: { monitors: { type: 'array', items: monitorSchema } } } as const;
export const monitorAnswer = { type: 'object', additionalProperties: false, required: ['monitor'], properties: { monitor: monitorSchema } } as const;
/** POST /monitors/:id/run: the check it queued. */
export const checkRunAnswer = { type: 'object', additionalProperties: false, required: ['check'], properties: { check: checkSchema } } as const;

export const checksAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['monitor', 'checks'],
  properties: { monitor: monitorSchema, checks: { type: 'array', items: checkSchema } },
} as const;

export const checkAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['monitor', 'check', 'pages'],
  properties: { monitor: monitorSchema, check: checkSchema, pages: { type: 'array', items: checkPageSchema } },
} as const;

export const usageDaySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['day', 'pages'],
  properties: { day: { type: 'string', format: 'date' }, pages: count },
} as const;

/** The last 30 days, oldest first, zero-filled. */
export const usageAnswer = { type: 'object', additionalProperties: false, required: ['days'], properties: { days: { type: 'array', items: usageDaySchema } } } as const;

/** One API request of the account, for the activity log. */
export const activityEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['at', 'method', 'path', 'status', 'durationMs', 'credits', 'keyPrefix'],
  properties: {
    at: date,
    method: { type: 'string' },
    path: { type: 'string' },
    status: { type: 'integer' },
    durationMs: count,
    credits: count,
    keyPrefix: stringOrNull,
  },
} as const;

export const activityAnswer = { type: 'object', additionalProperties: false, required: ['entries'], properties: { entries: { type: 'array', items: activityEntrySchema } } } as const;

export const memberSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'email', 'role', 'createdAt'],
  properties: { id: { type: 'string' }, email: { type: 'string' }, role: roleSchema, createdAt: date },
} as const;

export const inviteSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'role', 'createdAt', 'expiresAt'],
  properties: { id: { type: 'string' }, role: roleSchema, createdAt: date, expiresAt: date },
} as const;

/** `invites` is empty for members: only admins see them. */
export const teamAnswer = {
  type: 'object',
  additionalProperties: false,
  required: ['members', 'invites'],
  properties: { members: { type: 'array', items: memberSchema }, invites: { type: 'array', items: inviteSchema } },
} as const;

export const memberAnswer = { type: 'object', additionalProperties: false, required: ['member'], properties: { member: memberSchema } } as const;

/** POST /team/invites: `url` holds the invite's token, in this answer only. */
export const createdInviteSchema = { type: 'object', additionalProperties: false, required: ['id', 'url'], properties: { id: { type: 'string' }, url: { type: 'string' } } } as const;

/** GET /billing: `{ enabled: false }` with billing off, the plan and credits with it on. */
export const billingSchema = {
  anyOf: [
    { type: 'object', additionalProperties: false, required: ['enabled'], properties: { enabled: { const: false } } },
    {
      type: 'object',
      additionalProperties: false,
      required: ['enabled', 'status', 'planName', 'credits', 'periodEnd', 'cancelAtPeriodEnd', 'hasSubscription', 'plans'],
      properties: {
        enabled: { const: true },
        status: { type: 'string' },
        planName: stringOrNull,
        credits: { type: 'object', additionalProperties: false, required: ['granted', 'used', 'left'], properties: { granted: count, used: count, left: count } },
        periodEnd: date,
        cancelAtPeriodEnd: { type: 'boolean' },
        hasSubscription: { type: 'boolean' },
        plans: {
          type: 'array',
          items: { type: 'object', additionalProperties: false, required: ['productId', 'monthlyCredits'], properties: { productId: { type: 'string' }, monthlyCredits: count } },
        },
      },
    },
  ],
} as const;

/** POST /billing/checkout and /billing/portal: the billing provider's page to send the browser to. */
export const billingRedirectSchema = { type: 'object', additionalProperties: false, required: ['url'], properties: { url: { type: 'string' } } } as const;
