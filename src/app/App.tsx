import { AppShellStatus } from './components/AppShellStatus';
import { ErrorBoundary } from './components/ErrorBoundary';
import { StepNav } from './components/StepNav';
import { CompareStep } from './steps/compare/CompareStep';
import { DataStep } from './steps/data/DataStep';
import { ExportStep } from './steps/export/ExportStep';
import { MechanismStep } from './steps/mechanism/MechanismStep';
import { ResultsStep } from './steps/results/ResultsStep';
import { RunStep } from './steps/run/RunStep';
import { SchemaStep } from './steps/schema/SchemaStep';
import { TuneStep } from './steps/tune/TuneStep';

/** The studio: one page, the steps of DESIGN.md §4 in order, each usable once its inputs exist. */
export function App() {
  return (
    <div className="app">
      <header className="app-header">
        <h1>dpsynth</h1>
        <p>Differentially private synthetic data, made in your browser. Your file never leaves this page.</p>
        <p className="local-only-note">
          Local only: this page cannot make network requests (its security policy forbids them), stores no
          data, and sends no telemetry.
        </p>
        <AppShellStatus />
      </header>
      <ErrorBoundary area="the step list">
        <StepNav />
      </ErrorBoundary>
      <main className="steps">
        <DataStep />
        <SchemaStep />
        <MechanismStep />
        <TuneStep />
        <CompareStep />
        <RunStep />
        <ResultsStep />
        <ExportStep />
      </main>
    </div>
  );
}
