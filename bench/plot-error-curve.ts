// Draws an error-against-ε curve as SVG from a JSON file of the form of bench/data/aim-error-curve.json
// (ε values, one error per ε for each mechanism), both axes logarithmic. Post-processing of measured
// numbers only. Usage: npx tsx bench/plot-error-curve.ts bench/data/aim-error-curve.json bench/aim-error-curve.svg
import { readFileSync, writeFileSync } from 'node:fs';

interface Curve {
  epsilons: number[];
  series: Record<string, number[]>;
}

const [input, output] = process.argv.slice(2);
if (!input || !output) throw new Error('usage: plot-error-curve.ts <data.json> <out.svg>');
const curve = JSON.parse(readFileSync(input, 'utf8')) as Curve;

const width = 640;
const height = 420;
const margin = { left: 64, right: 150, top: 20, bottom: 52 };
const plotWidth = width - margin.left - margin.right;
const plotHeight = height - margin.top - margin.bottom;
const values = Object.values(curve.series).flat();
const decade = (x: number, round: (v: number) => number): number => round(Math.log10(x));
const xRange = [
  decade(Math.min(...curve.epsilons), Math.floor),
  decade(Math.max(...curve.epsilons), Math.ceil),
];
const yRange = [Math.log10(Math.min(...values) * 0.9), Math.log10(Math.max(...values) * 1.1)];
const px = (eps: number): number =>
  margin.left + ((Math.log10(eps) - xRange[0]!) / (xRange[1]! - xRange[0]!)) * plotWidth;
const py = (error: number): number =>
  margin.top + (1 - (Math.log10(error) - yRange[0]!) / (yRange[1]! - yRange[0]!)) * plotHeight;
const colours = ['#1b6ca8', '#c0392b', '#6c7a89', '#27ae60'];
const text = (x: number, y: number, anchor: string, content: string, extra = ''): string =>
  `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" text-anchor="${anchor}" ${extra}>${content}</text>`;

const parts: string[] = [];
parts.push(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
  `<rect width="${width}" height="${height}" fill="white"/>`,
  `<rect x="${margin.left}" y="${margin.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#444"/>`,
);
for (let power = xRange[0]!; power <= xRange[1]!; power++) {
  const x = px(10 ** power);
  parts.push(`<line x1="${x}" x2="${x}" y1="${margin.top}" y2="${margin.top + plotHeight}" stroke="#ddd"/>`);
  parts.push(text(x, margin.top + plotHeight + 16, 'middle', String(10 ** power)));
}
for (const tick of [0.05, 0.1, 0.2, 0.5, 1, 2, 5]) {
  if (Math.log10(tick) < yRange[0]! || Math.log10(tick) > yRange[1]!) continue;
  const y = py(tick);
  parts.push(`<line x1="${margin.left}" x2="${margin.left + plotWidth}" y1="${y}" y2="${y}" stroke="#ddd"/>`);
  parts.push(text(margin.left - 6, y + 4, 'end', String(tick)));
}
parts.push(text(margin.left + plotWidth / 2, height - 14, 'middle', 'ε (log scale)'));
parts.push(
  text(
    16,
    margin.top + plotHeight / 2,
    'middle',
    'workload error (log scale)',
    `transform="rotate(-90 16 ${margin.top + plotHeight / 2})"`,
  ),
);
Object.entries(curve.series).forEach(([name, errors], s) => {
  const colour = colours[s % colours.length]!;
  const points = errors.map((e, i) => `${px(curve.epsilons[i]!).toFixed(1)},${py(e).toFixed(1)}`);
  parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points.join(' ')}"/>`);
  for (const point of points) {
    const [x, y] = point.split(',');
    parts.push(`<circle cx="${x}" cy="${y}" r="3" fill="${colour}"/>`);
  }
  const legendY = margin.top + 16 + 20 * s;
  parts.push(
    `<line x1="${width - margin.right + 14}" x2="${width - margin.right + 40}" y1="${legendY}" y2="${legendY}" stroke="${colour}" stroke-width="2"/>`,
    text(width - margin.right + 46, legendY + 4, 'start', name),
  );
});
parts.push('</svg>');
writeFileSync(output, `${parts.join('\n')}\n`);
console.log(JSON.stringify({ plotted: Object.keys(curve.series), points: curve.epsilons.length, output }));
