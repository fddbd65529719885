/** The account's active API keys, for the pages that run work on one (monitors, playground). */
import { get } from './api';
import type { ApiKey } from './types';
import { useResource, type Resource } from './use-resource';

export function useActiveKeys(): Resource<ApiKey[]> {
  return useResource(
    (signal) => get<{ keys: ApiKey[] }>('/keys', signal).then((answer) => answer.keys.filter((key) => !key.revokedAt)),
    [],
  );
}
