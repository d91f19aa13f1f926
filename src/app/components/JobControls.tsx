import type { ReactNode } from 'react';
import type { ProgressChannel } from '../state/progress-store';
import { ProgressBar } from './ProgressBar';

interface StartButton {
  label: string;
  onStart(): void;
  disabled: boolean;
  primary?: boolean;
  /** Id of the sentence that says why the job cannot start. */
  describedBy?: string;
}

interface JobControlsProps {
  /** The job's progress channel and the accessible name of its bar. */
  channel: ProgressChannel;
  progressLabel: string;
  running: boolean;
  cancelLabel: string;
  onCancel(): void;
  /** The button that starts the job; absent for jobs that start by themselves (load, evaluation). */
  start?: StartButton;
  /** Shown before the bar of a job without a start button. */
  children?: ReactNode;
}

/**
 * The controls every long job of the studio shows: its start button (when the user starts it),
 * Cancel while it runs, and its progress bar. A job without a start button shows a row of its
 * bar and Cancel while it runs, nothing otherwise.
 */
export function JobControls({
  channel,
  progressLabel,
  running,
  cancelLabel,
  onCancel,
  start,
  children,
}: JobControlsProps) {
  const cancel = (
    <button type="button" onClick={onCancel}>
      {cancelLabel}
    </button>
  );
  if (start === undefined) {
    if (!running) return null;
    return (
      <div className="loading-row">
        {children}
        <ProgressBar channel={channel} label={progressLabel} />
        {cancel}
      </div>
    );
  }
  return (
    <>
      <div className="run-controls">
        <button
          type="button"
          className={start.primary ? 'primary' : undefined}
          disabled={start.disabled || running}
          aria-describedby={start.describedBy}
          onClick={start.onStart}
        >
          {start.label}
        </button>
        {running && cancel}
      </div>
      <ProgressBar channel={channel} label={progressLabel} />
    </>
  );
}
