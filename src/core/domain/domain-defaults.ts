/**
 * Default δ for learning a domain, in the studio and the CLI: category lists need δ > 0 (a value
 * held by one row is released with probability at most δ); with δ = 0 only declared lists are
 * possible. A module of its own so that the page can read it without the learning code.
 */
export const DEFAULT_DOMAIN_DELTA = '1e-6';
