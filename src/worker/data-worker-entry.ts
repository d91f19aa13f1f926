/** Data worker entry: exposes the data worker's API to the page (see data-worker.ts). */
import * as Comlink from 'comlink';
import { dataWorker } from './data-worker';

Comlink.expose(dataWorker);
