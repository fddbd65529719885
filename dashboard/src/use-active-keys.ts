/** The account's active API keys, for the pages that run work on one (monitors, playground). */
import { get } from './api';
import type { ApiKey, KeysAnswer } from './types';
import { useResource, type Resource } from './use-resource';

export function useActiveKeys(): Resource<ApiKey[]> {
  return useResource(
    (signal) => get<KeysAnswer>('/keys', signal).then((answer) => answer.keys.filter((key) => !key.revokedAt)),
    [],
  );
}
