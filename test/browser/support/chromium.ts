/** Which Chromium the browser suite drives: DEPUTY_CHROMIUM, else Debian's package. */
import { existsSync } from 'node:fs';

export function findChromium(): string | null {
  const candidates = [
    process.env.DEPUTY_CHROMIUM,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  return candidates.find((path) => path !== undefined && path !== '' && existsSync(path)) ?? null;
}

export const CHROMIUM = findChromium();
