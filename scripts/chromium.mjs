// The system Chromium every browser suite, benchmark and script uses: CHROME_PATH, else
// Debian's /usr/bin/chromium, with the flags a headless run on a CI machine needs (root needs
// --no-sandbox; no background traffic). Plain JavaScript, so the test runner's config can load it.

export const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless=new',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
