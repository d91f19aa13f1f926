/**
 * Progress of a long step on stderr: on a terminal one status line rewritten in place (at most
 * every 100 ms, and whenever the step changes); elsewhere (a log file) one line per step and per
 * tenth of the work, so a log stays short. `write` is stderr's write.
 */
export function progressReporter(
  write: (text: string) => void,
  terminal: boolean,
  now: () => number = () => Date.now(),
): (fraction: number, message?: string) => void {
  let lastMessage: string | undefined;
  let lastShownAt = -Infinity;
  let lastTenth = -1;
  return (fraction, message = '') => {
    const percent = Math.min(100, Math.max(0, Math.round(fraction * 100)));
    const changed = message !== lastMessage;
    if (terminal) {
      const time = now();
      if (!changed && fraction < 1 && time - lastShownAt < 100) return;
      lastShownAt = time;
      lastMessage = message;
      write(`\r${String(percent).padStart(3)}% ${message.slice(0, 60).padEnd(60)}`);
      if (fraction >= 1) write('\n');
      return;
    }
    const tenth = Math.floor(percent / 10);
    if (!changed && tenth === lastTenth) return;
    lastMessage = message;
    lastTenth = tenth;
    write(`dpsynth: ${String(percent).padStart(3)}% ${message}\n`);
  };
}
