/**
 * Delivers one webhook to one URL: builds the payload (loading the document by id), signs it with
 * the secret of the account whose key started the work (core/webhook-signature.ts) and POSTs it
 * through the egress policy without following redirects. Non-2xx or a network error throws, and
 * the workflow's retry policy tries again later.
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/client';
import { workflowIds, type WebhookDelivery } from '../core/contracts.js';
import { failureTypes } from '../core/failures.js';
import { toPublicDocument } from '../core/document.js';
import type { Format } from '../core/schemas/scrape.js';
import { UnsafeUrlError } from '../core/url-safety.js';
import { accountWebhookSecret, SIGNATURE_HEADER, signWebhook } from '../core/webhook-signature.js';
import { egressPolicyFrom } from '../egress/policy.js';
import { safeFetch } from '../egress/safe-fetch.js';
import type { ActivityDeps } from './deps.js';
import { webhookDeliveries } from '../telemetry/metrics.js';

const allFormats: Format[] = ['markdown', 'html', 'rawHtml', 'links', 'screenshot', 'images', 'attributes', 'summary'];

/**
 * From inside an activity: start a delivery's own durable workflow, at most once. Its id is the
 * delivery's identity, so once started it never starts again, even after it finished (a retried
 * activity, a page stored again after a crash).
 */
export async function startDeliveryOnce(taskQueue: string, delivery: WebhookDelivery): Promise<void> {
  try {
    await Context.current().client.workflow.start('deliverWebhooks', {
      taskQueue,
      workflowId: workflowIds.webhooks(delivery.event, delivery.deliveryId),
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      args: [delivery],
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

export function webhookActivities({ config, prisma }: Pick<ActivityDeps, 'config' | 'prisma'>) {
  const policy = egressPolicyFrom(config);
  async function payloadFor(delivery: WebhookDelivery): Promise<string> {
    let data: unknown;
    if (delivery.documentId) {
      const row = await prisma.document.findUnique({ where: { id: delivery.documentId } });
      // Only what was stored is there, which is what the caller asked for.
      data = row ? toPublicDocument(row, allFormats) : null;
    }
    const idField = delivery.event.startsWith('scrape.') ? 'scrapeId' : delivery.event.startsWith('batch_scrape.') ? 'batchId' : delivery.event.startsWith('monitor.') ? 'monitorId' : delivery.event.startsWith('extract.') ? 'extractId' : 'crawlId';
    return JSON.stringify({
      type: delivery.event,
      [idField]: delivery.subjectId,
      deliveryId: delivery.deliveryId,
      createdAt: new Date().toISOString(),
      metadata: delivery.metadata ?? null,
      ...(delivery.extra ?? {}),
      ...(delivery.documentId ? { data } : {}),
    });
  }

  /** The API key that started the delivery's work: the scrape's owner, the job's or the monitor's key. */
  async function keyOf(delivery: WebhookDelivery): Promise<string | null | undefined> {
    const kind = delivery.event.split('.')[0];
    if (kind === 'scrape') return delivery.owner?.startsWith('key:') ? delivery.owner.slice(4) : undefined;
    if (kind === 'monitor') return (await prisma.monitor.findUnique({ where: { id: delivery.subjectId }, select: { apiKeyId: true } }))?.apiKeyId;
    if (kind === 'extract') return (await prisma.extractJob.findUnique({ where: { id: delivery.subjectId }, select: { apiKeyId: true } }))?.apiKeyId;
    return (await prisma.job.findUnique({ where: { id: delivery.subjectId }, select: { apiKeyId: true } }))?.apiKeyId;
  }

  /** The account's own secret; the server-wide one for work without a key (x402 payers). */
  async function secretFor(delivery: WebhookDelivery): Promise<string> {
    const keyId = await keyOf(delivery);
    const key = keyId ? await prisma.apiKey.findUnique({ where: { id: keyId }, select: { account: { select: { id: true, webhookSecretVersion: true } } } }) : null;
    return key ? accountWebhookSecret(config.WEBHOOK_SIGNING_SECRET, key.account.id, key.account.webhookSecretVersion) : config.WEBHOOK_SIGNING_SECRET;
  }

  return {
    async deliverWebhook(delivery: WebhookDelivery): Promise<{ status: number }> {
      const url = delivery.urls[0]!;
      const [body, secret] = await Promise.all([payloadFor(delivery), secretFor(delivery)]);
      try {
        const { response } = await safeFetch(
          url,
          {
            method: 'POST',
            body,
            headers: {
              // The caller's own headers (the hosted API's webhook.headers) first: ours cannot be replaced.
              ...delivery.headers,
              'content-type': 'application/json',
              'user-agent': config.SERVICE_USER_AGENT,
              'x-pagewright-event': delivery.event,
              'x-pagewright-delivery': delivery.deliveryId,
              [SIGNATURE_HEADER]: signWebhook(secret, body),
            },
            signal: AbortSignal.timeout(20_000),
          },
          { ...policy, maxRedirects: 0 },
        );
        await response.body?.cancel();
        if (response.status < 200 || response.status > 299) throw new Error(`Webhook receiver ${url} answered HTTP ${response.status}`);
        webhookDeliveries.inc({ outcome: 'delivered' });
        return { status: response.status };
      } catch (err) {
        webhookDeliveries.inc({ outcome: 'failed' });
        if (err instanceof UnsafeUrlError) throw ApplicationFailure.nonRetryable(err.message, failureTypes.unsafeUrl);
        throw err;
      }
    },
  };
}
