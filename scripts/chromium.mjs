// The system Chromium every browser suite, benchmark and script uses, with the flags a headless
// run on a CI machine needs (root needs --no-sandbox; no background traffic). Plain JavaScript,
// so the test runner's config can load it.
//
// Which one: CHROME_PATH, else Debian's headless shell when it is installed
// (`apt-get install -y chromium-headless-shell`), else Debian's /usr/bin/chromium. The headless
// shell is the same Chromium build without the browser's user interface: the same engine, the
// same DevTools protocol, at about half the CPU for the same journeys (native and way-forward
// end-to-end files, two runs each: 44.5 and 45.3 busy CPU-seconds against 70.5 and 92.8).
import { existsSync } from 'node:fs';

const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';

export const CHROME_PATH = process.env.CHROME_PATH || (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

/** Whether CHROME_PATH is a headless shell, which is headless by build and takes no `--headless=` mode. */
export const isHeadlessShell = /headless[-_]shell/.test(CHROME_PATH);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  ...(isHeadlessShell ? [] : ['--headless=new']),
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
