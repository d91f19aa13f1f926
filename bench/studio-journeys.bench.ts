// The studio's interactive journeys in Chromium, timed, with every main-thread task over 50 ms.
// Prints ONE JSON object.
//
// Journeys (each in a fresh page of the built studio, `vite build` then `vite preview`):
//   penguins — the Palmer penguins demo, laplace-histogram with its defaults;
//   cars     — a 93-row, 10-column car catalogue (bench/support/car-table.ts), all inferred facts
//              declared public, laplace-histogram with its defaults (a domain of about 10^7 cells);
//   pmse     — the pMSE paper simulation demo (5,000 rows), pmse-mechanism with its defaults;
//   income   — kernlab's income (8,993 rows, 14 categorical columns; bench/export-kernlab-income.R writes
//              it and its declared schema; STUDIO_BENCH_INCOME=<csv>:<schema.json>), aim with its
//              defaults, one run at ε = 10, then the default sweep (ε back to 1);
//   census   — the census table of census-shape.bench.ts (48,842 × 14 categorical;
//              STUDIO_BENCH_CENSUS=<csv>:<schema.json>), mst with its defaults.
// income and census are skipped (reported as unavailable) without their files.
// Before each sweep the Tune step's estimate ("about 40 s") is read; the sweep then reports it beside
// the measured duration (estimateOverActual), with the time the first point was drawn and the repeats.
// STUDIO_BENCH_BUSY_CORE=1 keeps one core busy for the whole bench (a node process spinning, started
// before the browser, its pid reported) and says so in the JSON (busyCore: true).
// Steps timed (wall-clock seconds from the click to the finished state the browser tests wait for):
// load, run, full evaluation (started by the run; timed from the run's end), default ε sweep.
// A step that passes STUDIO_BENCH_STEP_LIMIT_S (default 360) is reported as timed out, with the
// sweep points drawn by then. Main-thread tasks come from a Chromium trace of the whole journey:
// wall-clock and processor milliseconds of each task over 50 ms, with the longest events inside it.
// Tasks that are the automation's own work in the page (Playwright's polls and the accessibility
// snapshots it takes while an expectation is not yet met) are told apart (MainThreadTask.source)
// and reported separately: a user's page does not run them.
// On a shared machine the wall-clock lengths include time the operating system gave to other
// processes; the processor milliseconds do not. The machine's load average is reported.
// Env: STUDIO_BENCH_PORT (default E2E_PORT, else 4190), STUDIO_BENCH_SKIP_BUILD=1 to reuse dist/.
// Args: journey names to run (default all three), e.g. `npm run bench -- studio-journeys` runs all.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename } from 'node:path';
import { chromium, expect, type Browser } from '@playwright/test';
import { StudioPage } from '../e2e/pages/studio-page';
import {
  ATTRIBUTION_CATEGORIES,
  startMainThreadTrace,
  stopMainThreadTrace,
  type MainThreadTask,
} from '../e2e/support/main-thread-tasks';
import { chromiumPath } from '../scripts/chromium-path';
import { makeCarCsv } from './support/car-table';

const PORT = Number(process.env.STUDIO_BENCH_PORT ?? process.env.E2E_PORT ?? 4190);
const STEP_LIMIT_MS = 1000 * Number(process.env.STUDIO_BENCH_STEP_LIMIT_S ?? 360);
const BASE = `http://127.0.0.1:${PORT}`;
const SWEEP_POINTS = 8;

type StepResult = { seconds: number; timedOut?: true; note?: string };

interface Journey {
  prepare(studio: StudioPage): Promise<void>;
  /** The files it needs (`<csv>:<schema.json>`), when it needs any; undefined = not given. */
  files?: string | undefined;
  /** ε of the timed run, when not the default (the sweep runs at the default ε's grid either way). */
  runEpsilon?: string;
}

const JOURNEYS: Record<string, Journey> = {
  penguins: {
    async prepare(studio) {
      await studio.data.loadPenguins();
      await studio.mechanism.pick('laplace-histogram');
    },
  },
  cars: {
    async prepare(studio) {
      await studio.data.dropCsv('cars.csv', makeCarCsv());
      await studio.data.expectLoaded('cars.csv', 93);
      await studio.schema.declareAllPublic();
      await studio.mechanism.pick('laplace-histogram');
    },
  },
  pmse: {
    async prepare(studio) {
      await studio.data.loadDemo('pMSE paper simulation');
      await studio.data.expectLoaded('pmse-simulation.csv', 5000);
      await studio.mechanism.pick('pmse-mechanism');
    },
  },
  income: {
    files: process.env.STUDIO_BENCH_INCOME,
    runEpsilon: '10',
    async prepare(studio) {
      await loadFiles(studio, process.env.STUDIO_BENCH_INCOME!, 8993);
      await studio.mechanism.pick('aim');
    },
  },
  census: {
    files: process.env.STUDIO_BENCH_CENSUS,
    async prepare(studio) {
      await loadFiles(studio, process.env.STUDIO_BENCH_CENSUS!, 48842);
      await studio.mechanism.pick('mst');
    },
  },
};

/** Drops `<csv>:<schema.json>`'s CSV and imports its schema. */
async function loadFiles(studio: StudioPage, files: string, rows: number): Promise<void> {
  const [csv, schema] = files.split(':');
  await studio.data.dropCsv(basename(csv!), readFileSync(csv!, 'utf8'));
  await studio.data.expectLoaded(basename(csv!), rows);
  await studio.schema.importSchema(schema!);
}

async function timed(step: () => Promise<void>): Promise<StepResult> {
  const startedAt = performance.now();
  try {
    await step();
    return { seconds: round((performance.now() - startedAt) / 1000) };
  } catch (error) {
    const seconds = round((performance.now() - startedAt) / 1000);
    return { seconds, timedOut: true, note: String((error as Error).message).split('\n')[0] };
  }
}

function round(x: number, digits = 2): number {
  return Number(x.toFixed(digits));
}

async function runJourney(browser: Browser, name: string, journey: Journey) {
  const context = await browser.newContext({ baseURL: BASE, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const studio = new StudioPage(page);
  await studio.open();
  await startMainThreadTrace(browser, page, ATTRIBUTION_CATEGORIES);
  const load = await timed(() => journey.prepare(studio));
  if (journey.runEpsilon) await studio.mechanism.setEpsilon(journey.runEpsilon);
  const run = await timed(async () => {
    await studio.run.start();
    await studio.run.expectFinished(STEP_LIMIT_MS);
  });
  const evaluation = await timed(() =>
    expect(studio.results.section.getByTestId('evaluation-status')).toContainText('Full evaluation done', {
      timeout: STEP_LIMIT_MS,
    }),
  );
  if (journey.runEpsilon) await studio.mechanism.setEpsilon('1');
  const estimate = studio.tune.section.getByTestId('sweep-estimate');
  await expect(estimate).toBeVisible();
  const estimateSeconds = Number(await estimate.getAttribute('data-seconds'));
  const repeatsText = await studio.tune.section.getByTestId('sweep-repeats-fitted').textContent();
  let firstPointSeconds: number | null = null;
  const sweepStart = performance.now();
  const sweep = await timed(async () => {
    await studio.tune.sweep();
    await expect(studio.tune.points.first()).toBeVisible({ timeout: STEP_LIMIT_MS });
    firstPointSeconds = round((performance.now() - sweepStart) / 1000);
    await studio.tune.expectPoints(SWEEP_POINTS, STEP_LIMIT_MS);
  });
  const sweepPointsDrawn = await studio.tune.points.count();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 200))));
  const traced: MainThreadTask[] = await stopMainThreadTrace(browser, 50);
  await context.close();
  // The studio's own tasks; the automation's polls and snapshots are counted apart.
  const tasks = traced.filter((task) => task.source === 'page');
  const driverTasks = traced.filter((task) => task.source === 'test driver');
  const over50Wall = tasks.filter((task) => task.wallMs > 50);
  const over50Cpu = tasks.filter((task) => task.cpuMs > 50);
  return {
    name,
    load,
    run,
    evaluation,
    sweep: {
      ...sweep,
      pointsDrawn: sweepPointsDrawn,
      of: SWEEP_POINTS,
      repeats: Number(repeatsText),
      estimateSeconds,
      estimateOverActual: round(estimateSeconds / sweep.seconds),
      firstPointSeconds,
    },
    longTasks: {
      overFiftyWallCount: over50Wall.length,
      overFiftyProcessorCount: over50Cpu.length,
      longestWallMs: Math.max(0, ...tasks.map((task) => task.wallMs)),
      longestProcessorMs: Math.max(0, ...tasks.map((task) => task.cpuMs)),
      testDriverTasks: driverTasks.length,
      testDriverLongestProcessorMs: Math.max(0, ...driverTasks.map((task) => task.cpuMs)),
      tasks,
    },
  };
}

async function waitForServer(url: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the preview server did not answer at ${url}`);
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((arg) => arg in JOURNEYS);
  const names = wanted.length > 0 ? wanted : Object.keys(JOURNEYS);
  if (process.env.STUDIO_BENCH_SKIP_BUILD !== '1') {
    const build = spawnSync('npx', ['vite', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (build.status !== 0) throw new Error('vite build failed');
  }
  const server = spawn(
    'npx',
    ['vite', 'preview', '--port', String(PORT), '--strictPort', '--host', '127.0.0.1'],
    {
      stdio: 'ignore',
      detached: true,
    },
  );
  // One core kept busy by a spinning process, when asked (the "one core busy" condition).
  const busy =
    process.env.STUDIO_BENCH_BUSY_CORE === '1'
      ? spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' })
      : null;
  if (busy) await new Promise((resolve) => setTimeout(resolve, 5000));
  const loadBefore = loadavg();
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    await waitForServer(BASE, 60_000);
    const journeys = [];
    for (const name of names) {
      const journey = JOURNEYS[name]!;
      if ('files' in journey && journey.files === undefined) {
        journeys.push({ name, unavailable: 'its files are not given (see the comment at the top)' });
        continue;
      }
      journeys.push(await runJourney(browser, name, journey));
    }
    process.stdout.write(
      JSON.stringify({
        bench: 'studio-journeys',
        cpus: cpus().length,
        busyCore: busy !== null,
        loadAverageBefore: loadBefore.map((x) => round(x)),
        loadAverageAfter: loadavg().map((x) => round(x)),
        budgets: {
          longTaskMs: 50,
          penguinsSweepSeconds: 3,
          pmseSweepSeconds: 60,
          incomeAimSweepSeconds: 60,
          incomeAimRunAtEpsilon10Seconds: 60,
          censusMstSweepSeconds: 60,
          estimateWithinFactor: 2,
          carsRunSeconds: 1,
        },
        journeys,
      }) + '\n',
    );
  } finally {
    await browser.close();
    if (server.pid) process.kill(-server.pid);
    busy?.kill();
  }
}

await main();
