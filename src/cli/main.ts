#!/usr/bin/env node
import { runCli } from './run-cli';
import type { CliIo } from './io';
import { progressReporter } from './progress-reporter';

const io: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  progress: progressReporter((text) => process.stderr.write(text), process.stderr.isTTY === true),
  progressByDefault: process.stderr.isTTY === true,
};

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`dpsynth: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
