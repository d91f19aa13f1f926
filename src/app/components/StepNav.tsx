import { useRunReadiness } from '../services/run-readiness';
import { useDataStore } from '../state/data-store';
import { useResultsStore } from '../state/results-store';
import { useSchemaStore } from '../state/schema-store';
import { stepNumber, type StepId } from './step-order';

export interface StepLink {
  id: StepId;
  label: string;
  /** Why the step cannot be used yet; null when it can. */
  blockedBecause: string | null;
  done: boolean;
}

/** The steps in page order (STEP_IDS) with what each still needs (derived, never stored). */
export function useStepLinks(): StepLink[] {
  const hasData = useDataStore((state) => state.dataset !== null);
  const hasSchema = useSchemaStore((state) => state.schema !== null);
  const hasRun = useResultsStore((state) => state.run !== null);
  const readiness = useRunReadiness();
  const mechanismReady =
    readiness.mechanism !== undefined && readiness.problems.length === 0 && readiness.params !== null;
  return [
    { id: 'step-data', label: 'Data', blockedBecause: null, done: hasData },
    {
      id: 'step-schema',
      label: 'Schema',
      blockedBecause: hasData ? null : 'needs data',
      done: hasSchema,
    },
    {
      id: 'step-mechanism',
      label: 'Mechanism',
      blockedBecause: hasSchema ? null : 'needs a schema',
      done: readiness.ready,
    },
    {
      id: 'step-tune',
      label: 'Tune ε',
      blockedBecause: mechanismReady ? null : 'needs a mechanism',
      done: false,
    },
    {
      id: 'step-compare',
      label: 'Compare',
      blockedBecause: hasSchema ? null : 'needs a schema',
      done: false,
    },
    {
      id: 'step-run',
      label: 'Run',
      blockedBecause: readiness.ready ? null : 'needs a runnable mechanism',
      done: hasRun,
    },
    {
      id: 'step-results',
      label: 'Results',
      blockedBecause: hasRun ? null : 'needs a run',
      done: false,
    },
    {
      id: 'step-export',
      label: 'Export',
      blockedBecause: hasRun ? null : 'needs a run',
      done: false,
    },
  ];
}

/** The sequence of steps, each a link to its section; steps whose inputs are missing say what they need. */
export function StepNav() {
  const links = useStepLinks();
  return (
    <nav className="step-nav" aria-label="Steps">
      <ol>
        {links.map((link) => (
          <li
            key={link.id}
            className={link.blockedBecause ? 'step-link-blocked' : link.done ? 'step-link-done' : ''}
          >
            <a
              href={`#${link.id}`}
              aria-disabled={link.blockedBecause !== null}
              title={link.blockedBecause ?? undefined}
              data-testid={`nav-${link.id}`}
            >
              <span className="step-number" aria-hidden="true">
                {link.done ? '✓' : stepNumber(link.id)}
              </span>
              {link.label}
              {link.blockedBecause && <span className="visually-hidden"> ({link.blockedBecause})</span>}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
