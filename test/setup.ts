/** Runs in every test process before its tests: keep the Temporal runtime's own logging to warnings. */
import { DefaultLogger, Runtime } from '@temporalio/worker';

Runtime.install({ logger: new DefaultLogger('WARN') });
