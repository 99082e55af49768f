import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { useFixture } from './fixture';

/** Debian's Chromium (`apt-get install -y chromium`); .ci/run installs it when missing. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether browser tests can run. Without Chromium they skip with a clear title, unless
 * REQUIRE_INFRA=1 (CI), where a missing browser fails the run.
 */
export const chromiumAvailable = (): boolean => {
  const found = existsSync(CHROMIUM_PATH);
  if (!found && process.env.REQUIRE_INFRA === '1') throw new Error(`Chromium not found at ${CHROMIUM_PATH} and REQUIRE_INFRA=1`);
  return found;
};

export const browserSuiteTitle = (title: string, available: boolean): string =>
  available ? title : `${title} (Chromium not found at ${CHROMIUM_PATH}: skipped)`;

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });

/** Where screenshots go (gitignored); look at them after a run. */
export const artifactPath = async (name: string): Promise<string> => {
  const dir = join(process.cwd(), 'test-artifacts');
  await mkdir(dir, { recursive: true });
  return join(dir, name);
};

/** Chromium for the tests of a describe block: launched before them, closed after them. */
export const useChromium = (): Browser => useFixture(launchChromium, (browser) => browser.close());
