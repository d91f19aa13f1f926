import { unprovenBoundPhrase } from '../../../core/privacy/claim-bound';
import type { PrivacyClaim } from '../../../core/privacy/types';

const NOTION_NAMES: Record<PrivacyClaim['notion'], string> = {
  'pure-dp': 'pure ε-differential privacy',
  'approx-dp': '(ε, δ)-differential privacy',
  gdp: 'μ-Gaussian differential privacy',
};

/** The privacy claim in words: updated live as parameters change (claim() uses public facts only). */
export function ClaimPanel({
  claim,
  error,
  title = 'Privacy claim',
  tuningNotes = [],
}: {
  claim: PrivacyClaim | null;
  error: string | null;
  title?: string;
  tuningNotes?: string[];
}) {
  return (
    <section className="claim-panel" aria-live="polite" data-testid="claim-panel" aria-label={title}>
      <h3>{title}</h3>
      {error !== null ? (
        <p className="field-problem">{error}</p>
      ) : claim === null ? (
        <p className="hint">Pick a mechanism to see its claim.</p>
      ) : (
        <ClaimDetails claim={claim} tuningNotes={tuningNotes} />
      )}
    </section>
  );
}

/** One line above the facts: the notion and ε, and "not a proven bound (why)" when the bound is unproven. */
function ClaimHeadline({ claim }: { claim: PrivacyClaim }) {
  const unproven = unprovenBoundPhrase(claim);
  return (
    <p
      className={unproven === null ? 'claim-headline' : 'claim-headline claim-unproven'}
      data-testid="claim-headline"
      data-bound={claim.bound}
    >
      {NOTION_NAMES[claim.notion]}, ε = {claim.epsilon}
      {unproven === null ? ' (proven bound)' : <strong> — {unproven}</strong>}
    </p>
  );
}

export function ClaimDetails({ claim, tuningNotes = [] }: { claim: PrivacyClaim; tuningNotes?: string[] }) {
  return (
    <>
      <ClaimHeadline claim={claim} />
      <dl className="claim-facts">
        <dt>Guarantee</dt>
        <dd data-testid="claim-notion">{NOTION_NAMES[claim.notion]}</dd>
        <dt>ε</dt>
        <dd data-testid="claim-epsilon">{claim.epsilon}</dd>
        <dt>δ</dt>
        <dd>{claim.delta}</dd>
        {claim.mu !== undefined && (
          <>
            <dt>μ</dt>
            <dd>{claim.mu}</dd>
          </>
        )}
        {claim.rho !== undefined && (
          <>
            <dt>ρ (zCDP)</dt>
            <dd>{claim.rho}</dd>
          </>
        )}
        <dt>Neighbouring datasets</dt>
        <dd data-testid="claim-neighbouring">
          {claim.neighbouring === 'add-remove'
            ? 'differ by adding or removing one row (n is private)'
            : 'differ by replacing one row (n is public)'}
        </dd>
        {claim.otherRelation !== undefined && (
          <>
            <dt>Under the other relation</dt>
            <dd data-testid="claim-other-relation">{claim.otherRelation}</dd>
          </>
        )}
      </dl>
      <h4>How the budget is spent</h4>
      <ol className="claim-steps">
        {claim.steps.map((step, i) => (
          <li key={i}>
            {step.what}: ε = {step.epsilon}
            {step.delta ? `, δ = ${step.delta}` : ''}
            {step.mu !== undefined ? `, μ = ${step.mu}` : ''}
            {step.rho !== undefined ? `, ρ = ${step.rho}` : ''}
          </li>
        ))}
      </ol>
      {claim.assumptions.length > 0 && (
        <>
          <h4>The guarantee rests on</h4>
          <ul className="claim-assumptions">
            {claim.assumptions.map((assumption, i) => (
              <li key={i}>{assumption}</li>
            ))}
          </ul>
        </>
      )}
      {tuningNotes.length > 0 && (
        <>
          <h4>Choices made after seeing the real data</h4>
          <ul className="claim-assumptions" data-testid="tuning-notes">
            {tuningNotes.map((note, i) => (
              <li key={i}>{note}</li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
