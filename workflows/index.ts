/** Every workflow the worker registers. The worker bundles this file for Temporal's sandbox. */
export { healthCheck } from './health-check.js';
