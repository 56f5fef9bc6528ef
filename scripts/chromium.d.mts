/** The Chromium executable: CHROME_PATH, else Debian's headless shell when installed, else /usr/bin/chromium. */
export declare const CHROME_PATH: string;
/** Whether CHROME_PATH is a headless shell (headless by build, no `--headless=` mode). */
export declare const isHeadlessShell: boolean;
/** Flags for a headless Chromium on a CI machine. */
export declare const CHROMIUM_ARGS: string[];
