/** One colour per MCMC chain, in chain order (the live traces and the results' trace chart). */
export const CHAIN_COLOURS = ['#26547c', '#c06a1b', '#2f6b3a', '#a4262c', '#6b4c9a', '#5b6b7f'];
