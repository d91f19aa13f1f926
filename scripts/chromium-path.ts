import { existsSync } from 'node:fs';

/** Chromium used by the browser tests: CHROMIUM_PATH when set, else Debian's package. */
export function chromiumPath(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv && existsSync(fromEnv)) return fromEnv;
  return '/usr/bin/chromium';
}
