/** `synth.csv` for one release; `synth.1.csv` … `synth.M.csv` for M > 1 (DESIGN.md §2, CLI). */
export function releasePaths(out: string, releases: number): string[] {
  if (releases === 1) return [out];
  const dot = out.lastIndexOf('.');
  const slash = Math.max(out.lastIndexOf('/'), out.lastIndexOf('\\'));
  const hasExtension = dot > slash + 1;
  const stem = hasExtension ? out.slice(0, dot) : out;
  const extension = hasExtension ? out.slice(dot) : '.csv';
  return Array.from({ length: releases }, (_, i) => `${stem}.${i + 1}${extension}`);
}
