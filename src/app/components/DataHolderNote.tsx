/** The mark on everything computed from the real data (DESIGN.md §2: not DP, not for release). */
export function DataHolderNote({ children }: { children?: string }) {
  return (
    <p className="data-holder-note">
      <span className="data-holder-tag">For the data holder</span>{' '}
      {children ?? 'Computed from the real data: not differentially private, not for release.'}
    </p>
  );
}
