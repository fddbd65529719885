/** The signed-in page for each route. */
import type { Route } from '../routes';
import { ActivityPage } from './activity';
import { JobDetailPage } from './job-detail';
import { JobsPage } from './jobs';
import { KeysPage } from './keys';
import { MonitorCheckPage } from './monitor-check';
import { MonitorDetailPage } from './monitor-detail';
import { MonitorsPage } from './monitors';
import { NotFoundPage } from './not-found';
import { PlaygroundPage } from './playground';
import { TeamPage } from './team';
import { UsagePage } from './usage';
import { BillingPage } from './billing';

export function Page({ route }: { route: Route }) {
  switch (route.page) {
    case 'keys':
      return <KeysPage />;
    case 'jobs':
      return <JobsPage kind={route.kind} />;
    case 'job':
      return <JobDetailPage id={route.id} />;
    case 'monitors':
      return <MonitorsPage />;
    case 'monitor':
      return <MonitorDetailPage id={route.id} />;
    case 'check':
      return <MonitorCheckPage id={route.id} checkId={route.checkId} />;
    case 'playground':
      return <PlaygroundPage />;
    case 'usage':
      return <UsagePage />;
    case 'billing':
      return <BillingPage />;
    case 'activity':
      return <ActivityPage />;
    case 'team':
      return <TeamPage />;
    default:
      return <NotFoundPage />;
  }
}
