/**
 * A value a `before` hook assigns, as its `after` hook must read it: possibly unset. TypeScript
 * takes a `let` read inside a closure to hold its declared type, but a hook that failed halfway
 * leaves it undefined, and the cleanup then skips it rather than throw over the hook's own error.
 */
export const opened = <T>(value: T): T | undefined => value;
