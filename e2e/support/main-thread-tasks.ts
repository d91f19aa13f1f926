import type { Browser, Page } from '@playwright/test';

/**
 * The studio's budget is no main-thread task over 50 ms; the studio-journeys benchmark in bench/ measures
 * it. A browser test only guards against gross blocking, at 5 times the budget, and measures a
 * task by the processor time the page's main thread spent in it (the trace's thread duration),
 * not by its wall-clock length: on a shared, loaded machine the operating system can stretch a
 * 10 ms task to hundreds of milliseconds, which says nothing about the studio.
 */
export const MAIN_THREAD_GUARD_MS = 250;

/** One task of the page's main thread: wall-clock and thread (processor) milliseconds. */
export interface MainThreadTask {
  /** Start, milliseconds from the start of the trace. */
  startMs: number;
  wallMs: number;
  cpuMs: number;
  /**
   * Who ran it (bench traces only; 'page' otherwise): 'test driver' for a task that is the browser
   * automation's own script evaluation (Playwright's polls and accessibility snapshots arrive as a
   * "Receive mojo message" with no page script, event, timer, frame or worker message inside).
   */
  source: 'page' | 'test driver';
  /** The events inside the task that took the most wall-clock time, longest first (bench traces only). */
  inside: { name: string; wallMs: number; detail?: string }[];
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; type?: string } };
}

const TASK_NAMES = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);
/** Timeline events through which the page's own code runs (devtools.timeline category). */
const PAGE_ENTRY_EVENTS = new Set([
  'FunctionCall',
  'EventDispatch',
  'TimerFire',
  'FireAnimationFrame',
  'FireIdleCallback',
  'HandlePostMessage',
  'ParseHTML',
  'EvaluateScript',
  'XHRReadyStateChange',
]);
const DRIVER_MESSAGE = 'Receive mojo message';
/** Enough for the guard; the bench adds the timeline categories for attribution. */
export const GUARD_CATEGORIES = ['toplevel'];
export const ATTRIBUTION_CATEGORIES = ['toplevel', 'devtools.timeline', 'v8.execute', 'blink.user_timing'];

export async function startMainThreadTrace(
  browser: Browser,
  page: Page,
  categories: string[] = GUARD_CATEGORIES,
): Promise<void> {
  await browser.startTracing(page, { categories });
}

/**
 * Stops the trace and returns the renderer main thread's tasks longer than `minWallMs` in wall
 * time or in processor time. Nested task events are folded into the outermost one.
 */
export async function stopMainThreadTrace(browser: Browser, minWallMs = 50): Promise<MainThreadTask[]> {
  const buffer = await browser.stopTracing();
  const parsed = JSON.parse(buffer.toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const mainThreads = new Set<string>();
  for (const event of events) {
    if (event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain') {
      mainThreads.add(`${event.pid}:${event.tid}`);
    }
  }
  const onMain = events.filter((event) => mainThreads.has(`${event.pid}:${event.tid}`) && event.ph === 'X');
  let origin = Infinity;
  for (const event of events) if (event.ts > 0 && event.ts < origin) origin = event.ts;
  const outer: TraceEvent[] = [];
  const lastEnd = new Map<string, number>();
  for (const event of onMain.filter((e) => TASK_NAMES.has(e.name)).sort((a, b) => a.ts - b.ts)) {
    const thread = `${event.pid}:${event.tid}`;
    if ((lastEnd.get(thread) ?? -Infinity) > event.ts) continue;
    outer.push(event);
    lastEnd.set(thread, event.ts + (event.dur ?? 0));
  }
  const tasks: MainThreadTask[] = [];
  for (const task of outer) {
    const wallMs = (task.dur ?? 0) / 1000;
    const cpuMs = (task.tdur ?? task.dur ?? 0) / 1000;
    if (wallMs <= minWallMs && cpuMs <= minWallMs) continue;
    const end = task.ts + (task.dur ?? 0);
    const within = onMain
      .filter((event) => !TASK_NAMES.has(event.name) && event.pid === task.pid && event.tid === task.tid)
      .filter((event) => event.ts >= task.ts && event.ts + (event.dur ?? 0) <= end);
    const driverMessage = within.some(
      (event) => event.name === DRIVER_MESSAGE && (event.dur ?? 0) >= 0.9 * (task.dur ?? 0),
    );
    const pageCode = within.some((event) => PAGE_ENTRY_EVENTS.has(event.name));
    const inside = within
      .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
      .slice(0, 4)
      .map((event) => {
        const data = event.args?.data;
        const detail = data?.functionName || data?.url || data?.type;
        return {
          name: event.name,
          wallMs: Math.round((event.dur ?? 0) / 1000),
          ...(detail ? { detail } : {}),
        };
      });
    tasks.push({
      startMs: Math.round((task.ts - origin) / 1000),
      wallMs: Math.round(wallMs),
      cpuMs: Math.round(cpuMs),
      source: driverMessage && !pageCode ? 'test driver' : 'page',
      inside,
    });
  }
  return tasks;
}
