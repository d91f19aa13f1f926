import { useEffect, useRef } from 'react';
import { useProgressStore, type ProgressChannel } from '../state/progress-store';

interface ProgressBarProps {
  channel: ProgressChannel;
  /** Accessible name of the bar ("Parsing progress"). */
  label: string;
}

/**
 * A progress bar with its message and elapsed time. It reads the progress store through
 * `subscribe` and writes to its own DOM nodes, so frequent progress ticks never re-render React
 * components. Renders nothing visible while its channel is idle.
 */
export function ProgressBar({ channel, label }: ProgressBarProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const barRef = useRef<HTMLProgressElement>(null);
  const messageRef = useRef<HTMLSpanElement>(null);
  const elapsedRef = useRef<HTMLSpanElement>(null);

  useEffect(() => {
    const paint = () => {
      const entry = useProgressStore.getState().entries[channel];
      const container = containerRef.current;
      if (!container || !barRef.current || !messageRef.current || !elapsedRef.current) return;
      container.hidden = entry === undefined;
      if (entry === undefined) return;
      barRef.current.value = entry.fraction;
      barRef.current.setAttribute('aria-valuetext', `${Math.round(entry.fraction * 100)}%: ${entry.message}`);
      messageRef.current.textContent = `${entry.message} — ${Math.round(entry.fraction * 100)}%`;
      elapsedRef.current.textContent = formatElapsed(performance.now() - entry.startedAt);
    };
    paint();
    const unsubscribe = useProgressStore.subscribe(paint);
    const timer = setInterval(paint, 250);
    return () => {
      unsubscribe();
      clearInterval(timer);
    };
  }, [channel]);

  return (
    <div ref={containerRef} className="progress" data-testid={`progress-${channel}`} hidden>
      <progress ref={barRef} max={1} value={0} aria-label={label} />
      <span ref={messageRef} className="progress-message" aria-live="polite" />
      <span ref={elapsedRef} className="progress-elapsed" />
    </div>
  );
}

/** "0.4 s", "12 s", "2 min 05 s". */
export function formatElapsed(millis: number): string {
  const seconds = millis / 1000;
  if (seconds < 10) return `${seconds.toFixed(1)} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${String(Math.round(seconds - minutes * 60)).padStart(2, '0')} s`;
}
