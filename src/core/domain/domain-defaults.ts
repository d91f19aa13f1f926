/**
 * Default δ for learning a domain, in the studio and the CLI: category lists need δ > 0 (a value
 * held by one row is released with probability at most δ); with δ = 0 only declared lists are
 * possible. A module of its own so that the page can read it without the learning code.
 */
export const DEFAULT_DOMAIN_DELTA = '1e-6';

/** Default ε the studio offers for learning a domain: a small share next to a typical run's ε = 1. */
export const DEFAULT_DOMAIN_EPSILON = '0.5';
