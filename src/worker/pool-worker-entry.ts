/** Pool worker entry: exposes the pool worker's API to the page (see pool-worker.ts). */
import * as Comlink from 'comlink';
import { poolWorker } from './pool-worker';

Comlink.expose(poolWorker);
