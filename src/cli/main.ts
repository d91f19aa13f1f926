#!/usr/bin/env node
import { runCli } from './run-cli';
import type { CliIo } from './io';

const io: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  progress: process.stderr.isTTY
    ? (fraction, message) => {
        const percent = Math.round(fraction * 100);
        process.stderr.write(`\r${String(percent).padStart(3)}% ${(message ?? '').slice(0, 60).padEnd(60)}`);
        if (fraction >= 1) process.stderr.write('\n');
      }
    : undefined,
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
