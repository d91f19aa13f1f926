/**
 * Where a long job of the studio stands: loading a file, a run, its evaluation, an ε sweep or a
 * comparison. Every job kind uses these five words, so "finished" means the same everywhere.
 */
export type JobStatus = 'idle' | 'running' | 'finished' | 'failed' | 'cancelled';

/** The status a job ends with. */
export type JobEnd = Exclude<JobStatus, 'idle' | 'running'>;
