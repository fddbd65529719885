/**
 * The JSON shapes of /dashboard/api, derived from the schemas the routes declare as their answers
 * (api/dashboard/schemas.ts), so the dashboard reads what the server is typed to send. Type-only:
 * nothing of the server reaches the bundle. Dates are ISO strings.
 */
import type { FromSchema } from 'json-schema-to-ts';
import type * as schemas from '../../api/dashboard/schemas';

export type Role = FromSchema<typeof schemas.roleSchema>;
export type Session = FromSchema<typeof schemas.sessionSchema>;
/** What GET /session answers with its 401, so the sign-in page knows what to offer. */
export type SignedOut = FromSchema<typeof schemas.signedOutSchema>;

export type ApiKey = FromSchema<typeof schemas.apiKeySchema>;
export type KeysAnswer = FromSchema<typeof schemas.keysAnswer>;
export type CreatedKey = FromSchema<typeof schemas.createdKeySchema>;
/** When the webhook signing secret last changed (GET /webhook-secret, everyone). */
export type WebhookSecretState = FromSchema<typeof schemas.webhookSecretStateSchema>;
/** The secret itself: only in the answers to reveal and rotate (admins). */
export type WebhookSecret = FromSchema<typeof schemas.webhookSecretSchema>;

export type JobKind = FromSchema<typeof schemas.jobKindSchema>;
export type JobStatus = FromSchema<typeof schemas.jobStatusSchema>;
export type Job = FromSchema<typeof schemas.jobSchema>;
export type JobDetail = FromSchema<typeof schemas.jobDetailSchema>;
export type JobsAnswer = FromSchema<typeof schemas.jobsAnswer>;
export type JobDetailAnswer = FromSchema<typeof schemas.jobDetailAnswer>;
/** A scraped document: every string in it comes from a page on the web, so it is hostile. */
export type Doc = FromSchema<typeof schemas.docSchema>;
export type DocumentsAnswer = FromSchema<typeof schemas.documentsAnswer>;

export type Monitor = FromSchema<typeof schemas.monitorSchema>;
export type Check = FromSchema<typeof schemas.checkSchema>;
export type CheckPage = FromSchema<typeof schemas.checkPageSchema>;
export type MonitorsAnswer = FromSchema<typeof schemas.monitorsAnswer>;
export type MonitorAnswer = FromSchema<typeof schemas.monitorAnswer>;
export type ChecksAnswer = FromSchema<typeof schemas.checksAnswer>;
export type CheckAnswer = FromSchema<typeof schemas.checkAnswer>;

export type UsageDay = FromSchema<typeof schemas.usageDaySchema>;
export type UsageAnswer = FromSchema<typeof schemas.usageAnswer>;
export type ActivityEntry = FromSchema<typeof schemas.activityEntrySchema>;
export type ActivityAnswer = FromSchema<typeof schemas.activityAnswer>;

export type Member = FromSchema<typeof schemas.memberSchema>;
export type Invite = FromSchema<typeof schemas.inviteSchema>;
export type TeamAnswer = FromSchema<typeof schemas.teamAnswer>;
export type CreatedInvite = FromSchema<typeof schemas.createdInviteSchema>;

export type Billing = FromSchema<typeof schemas.billingSchema>;
/** The billing provider's page (checkout or customer portal) to send the browser to. */
export type BillingRedirect = FromSchema<typeof schemas.billingRedirectSchema>;
