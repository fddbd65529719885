/**
 * Billing: the account's plan, credits left and when they renew, for everyone in it. Admins
 * upgrade (a checkout at the billing provider, which sends them back here) and manage the
 * subscription in the provider's customer portal. With billing off, usage is unlimited.
 */
import { get, post } from '../api';
import { ErrorAlert, Loading } from '../components/alert';
import { DataTable } from '../components/data-table';
import { PageTitle } from '../components/page-title';
import { formatDate, formatNumber, humanize } from '../format';
import { useSession } from '../session';
import type { Billing, BillingRedirect } from '../types';
import { useSubmit } from '../use-submit';
import { useResource } from '../use-resource';

/** Off to the provider's page (checkout or portal): a full navigation, as it is another site. */
const go = async (path: string, body: unknown) => {
  const { url } = await post<BillingRedirect>(path, body);
  window.location.assign(url);
};

export function BillingPage() {
  const session = useSession();
  const isAdmin = session.user.role === 'admin';
  const billing = useResource((signal) => get<Billing>('/billing', signal), []);
  const portal = useSubmit(() => go('/billing/portal', {}), { keepBusy: true });
  const data = billing.data;

  return (
    <>
      <PageTitle title="Billing" />
      <ErrorAlert error={billing.error} />
      {!data && billing.loading && <Loading what="billing" />}
      {data && !data.enabled && <p>Billing is off on this server: usage is unlimited.</p>}
      {data?.enabled && data.credits && (
        <>
          <section>
            <h2>Plan</h2>
            <dl class="summary">
              <dt>Plan</dt>
              <dd>{data.planName ?? 'Free allowance'}</dd>
              <dt>Status</dt>
              <dd>{humanize(data.status ?? 'free')}</dd>
              <dt>Credits left</dt>
              <dd>
                {formatNumber(data.credits.left)} of {formatNumber(data.credits.granted)} pages
              </dd>
              <dt>{data.cancelAtPeriodEnd ? 'Ends' : 'Renews'}</dt>
              <dd>{data.periodEnd ? formatDate(data.periodEnd) : '—'}</dd>
            </dl>
            {isAdmin && data.hasSubscription && (
              <form onSubmit={(event) => void portal.submit(event)}>
                <ErrorAlert error={portal.error} />
                <button type="submit" aria-disabled={portal.busy || undefined}>
                  Manage subscription
                </button>
              </form>
            )}
          </section>
          <section>
            <h2>Plans</h2>
            {!isAdmin && <p>Only an admin of this account can change the plan.</p>}
            <DataTable
              caption="Plans"
              hideCaption
              headers={isAdmin ? ['Plan', 'Pages per month', 'Actions'] : ['Plan', 'Pages per month']}
              empty="No plans are set up on this server."
              rows={(data.plans ?? []).map((plan) => (
                <tr key={plan.productId}>
                  <td>
                    <code>{plan.productId}</code>
                  </td>
                  <td>{formatNumber(plan.monthlyCredits)}</td>
                  {isAdmin && (
                    <td>
                      <UpgradeButton productId={plan.productId} />
                    </td>
                  )}
                </tr>
              ))}
            />
          </section>
        </>
      )}
    </>
  );
}

function UpgradeButton({ productId }: { productId: string }) {
  const upgrade = useSubmit(() => go('/billing/checkout', { productId }), { keepBusy: true });
  return (
    <form onSubmit={(event) => void upgrade.submit(event)}>
      <ErrorAlert error={upgrade.error} />
      <button type="submit" class="primary" aria-label={`Upgrade to ${productId}`} aria-disabled={upgrade.busy || undefined}>
        Upgrade
      </button>
    </form>
  );
}
