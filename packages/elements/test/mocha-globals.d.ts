/**
 * The mocha globals the browser tests use (web-test-runner runs them under mocha; the
 * repository has no @types/mocha).
 */
type MochaFn = (this: unknown) => void | Promise<void>;
declare function describe(title: string, fn: () => void): void;
declare const it: {
  (title: string, fn: MochaFn): void;
  /** A test that waits, its reason in its title. */
  skip(title: string, fn: MochaFn): void;
};
declare function beforeEach(fn: MochaFn): void;
declare function afterEach(fn: MochaFn): void;
