/**
 * Connection options for the Temporal client (API) and the worker, from the config table: plain on
 * loopback for the dev server; TLS with a client certificate for a self-hosted cluster; TLS with an
 * API key for Temporal Cloud. File reading is passed in so this module stays free of I/O.
 */
import type { Config } from './config.js';

/** Starting a workflow takes milliseconds; past this Temporal is unreachable and the caller gets a 503 (the client would otherwise retry for ~20 s). */
export const START_DEADLINE_MS = 5000;

export interface TemporalConnectionOptions {
  address: string;
  tls?: {
    serverNameOverride?: string;
    serverRootCACertificate?: Uint8Array;
    clientCertPair?: { crt: Uint8Array; key: Uint8Array };
  };
  apiKey?: string;
}

export function temporalConnectionOptions(config: Config, readFile: (path: string) => Uint8Array): TemporalConnectionOptions {
  const mtls = config.TEMPORAL_TLS_CERT_PATH && config.TEMPORAL_TLS_KEY_PATH;
  const useTls = config.TEMPORAL_TLS || Boolean(mtls) || Boolean(config.TEMPORAL_API_KEY) || Boolean(config.TEMPORAL_TLS_CA_PATH);
  if (!useTls) return { address: config.TEMPORAL_ADDRESS };
  return {
    address: config.TEMPORAL_ADDRESS,
    tls: {
      ...(config.TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: config.TEMPORAL_TLS_SERVER_NAME } : {}),
      ...(config.TEMPORAL_TLS_CA_PATH ? { serverRootCACertificate: readFile(config.TEMPORAL_TLS_CA_PATH) } : {}),
      ...(mtls ? { clientCertPair: { crt: readFile(config.TEMPORAL_TLS_CERT_PATH!), key: readFile(config.TEMPORAL_TLS_KEY_PATH!) } } : {}),
    },
    ...(config.TEMPORAL_API_KEY ? { apiKey: config.TEMPORAL_API_KEY } : {}),
  };
}
