/** A command's arguments as node:util parseArgs returns them (strict, positionals allowed). */
export type ParsedArgs = {
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
};

/**
 * Settings of a run that no flag sets: the defaults serve every user; tests of the commands set them
 * to reach cases a small file would not (a release written in several row blocks).
 */
export interface CliInternals {
  /** Rows per block of the release `synth` writes (default RELEASE_BLOCK_ROWS). */
  releaseBlockRows?: number;
}
