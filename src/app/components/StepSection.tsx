import type { ReactNode } from 'react';
import { ErrorBoundary } from './ErrorBoundary';
import { stepNumber, type StepId } from './step-order';

export interface StepSectionProps {
  /** Anchor id, e.g. "step-data"; the step's number follows from its place in STEP_IDS. */
  id: StepId;
  title: string;
  /** One line under the title saying what the step is for. */
  intro: string;
  /** When set, the step's inputs are missing: this sentence is shown instead of the content. */
  unavailableBecause?: string | null;
  children: ReactNode;
}

/** One step of the studio: a landmark section with a numbered heading and a clear empty state. */
export function StepSection({ id, title, intro, unavailableBecause, children }: StepSectionProps) {
  const headingId = `${id}-heading`;
  return (
    <section id={id} className="step" aria-labelledby={headingId} data-testid={id}>
      <header className="step-header">
        <h2 id={headingId}>
          <span className="step-number" aria-hidden="true">
            {stepNumber(id)}
          </span>
          {title}
        </h2>
        <p className="step-intro">{intro}</p>
      </header>
      {unavailableBecause ? (
        <p className="empty-state">{unavailableBecause}</p>
      ) : (
        <ErrorBoundary area={`the ${title} step`}>{children}</ErrorBoundary>
      )}
    </section>
  );
}
