import { startTransition, useEffect, useState, type ReactNode } from 'react';

/**
 * Mounting several charts at once can keep the main thread busy for hundreds of milliseconds
 * (each Recharts chart renders in several synchronous passes). StaggeredMount lets its children
 * mount one at a time, each in its own task after the previous one has committed, so no single
 * task is long and the page stays responsive while results appear.
 */
const waiting: (() => void)[] = [];
let mounting: (() => void) | null = null;

function startNext(): void {
  if (mounting !== null) return;
  const next = waiting.shift();
  if (next === undefined) return;
  mounting = next;
  next();
}

function finished(start: () => void): void {
  if (mounting !== start) return;
  mounting = null;
  setTimeout(startNext, 0);
}

export function StaggeredMount({
  placeholderHeight,
  children,
}: {
  placeholderHeight: number;
  children: ReactNode;
}) {
  const ready = useStaggeredValue(true) === true;
  if (ready) return <>{children}</>;
  return (
    <div className="chart-placeholder" style={{ height: placeholderHeight }} aria-hidden="true">
      Drawing…
    </div>
  );
}

/**
 * The same turn-taking for a value that changes: returns `value` once this component's turn has
 * come (undefined before the first turn), and takes each new value in a later turn. Results panels
 * use it so that neither their first drawing nor the redrawing when the evaluation arrives happens
 * for all panels in one task.
 */
export function useStaggeredValue<T>(value: T): T | undefined {
  const [shown, setShown] = useState<{ value: T } | undefined>(undefined);
  const [pending, setPending] = useState<(() => void) | null>(null);
  useEffect(() => {
    const start = () =>
      startTransition(() => {
        setShown({ value });
        setPending(() => start);
      });
    waiting.push(start);
    setTimeout(startNext, 0);
    return () => {
      const index = waiting.indexOf(start);
      if (index >= 0) waiting.splice(index, 1);
      finished(start);
    };
  }, [value]);
  useEffect(() => {
    if (pending === null || mounting !== pending) return;
    const current = pending;
    const frame = requestAnimationFrame(() => finished(current));
    return () => cancelAnimationFrame(frame);
  }, [pending]);
  return shown?.value;
}
