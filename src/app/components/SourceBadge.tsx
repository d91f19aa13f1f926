import type { FieldSource } from '../../core/table/types';

const TITLES: Record<FieldSource, string> = {
  declared: 'Declared by you as public knowledge.',
  dp: 'Learned from the data with differential privacy: its cost is part of every claim on this schema.',
  inferred:
    'Read from the data: convenient, but it reveals something about the data and is flagged in the claim.',
};

/**
 * "declared" (public knowledge the user stated), "dp" (learned with an accounted share of ε) or
 * "inferred" (read from the data: not private), for
 * one fact of a column (`fact`, e.g. "bounds") or, with `partly`, for a column whose facts are mixed.
 */
export function SourceBadge({
  source,
  fact,
  partly = false,
}: {
  source: FieldSource;
  fact?: string;
  partly?: boolean;
}) {
  return (
    <span
      className={`badge badge-${source}`}
      data-fact={fact}
      title={
        partly ? 'Some facts of this column were read from the data; each is badged below.' : TITLES[source]
      }
    >
      {partly ? 'partly inferred' : source}
      {fact !== undefined && <span className="visually-hidden"> ({fact})</span>}
    </span>
  );
}
