/** Worker entry: exposes the engine to the page (see engine.ts). */
import * as Comlink from 'comlink';
import { engine } from './engine';

Comlink.expose(engine);
