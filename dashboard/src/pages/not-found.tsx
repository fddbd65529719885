/** Any /dashboard path the router does not know. */
import { PageTitle } from '../components/page-title';
import { paths } from '../routes';

export function NotFoundPage() {
  return (
    <>
      <PageTitle title="Page not found" />
      <p>
        There is no page at this address. Go to <a href={paths.keys}>API keys</a>.
      </p>
    </>
  );
}
