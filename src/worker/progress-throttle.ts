import type { ProgressListener } from './protocol';

/**
 * Wraps a cross-thread progress listener so that at most one message per `intervalMillis`
 * crosses the boundary (each one costs a postMessage and a main-thread task), except the
 * first report, the final report (fraction 1) and any change of message text, which always pass.
 */
export function throttleProgress(
  listener: ProgressListener,
  intervalMillis = 50,
  now: () => number = () => performance.now(),
): ProgressListener {
  let lastSentAt = -Infinity;
  let lastMessage: string | undefined;
  return (fraction, message) => {
    const time = now();
    const mustSend = fraction >= 1 || message !== lastMessage;
    if (!mustSend && time - lastSentAt < intervalMillis) return;
    lastSentAt = time;
    lastMessage = message;
    listener(Math.min(1, Math.max(0, fraction)), message);
  };
}
