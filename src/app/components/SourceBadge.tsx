import type { FieldSource } from '../../core/table/types';

/** "declared" (public knowledge the user stated) or "inferred" (read from the data: not private). */
export function SourceBadge({ source }: { source: FieldSource }) {
  return (
    <span
      className={`badge badge-${source}`}
      title={
        source === 'declared'
          ? 'Declared by you as public knowledge.'
          : 'Read from the data: convenient, but it reveals something about the data and is flagged in the claim.'
      }
    >
      {source}
    </span>
  );
}
