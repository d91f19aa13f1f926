// Writes the studio's app icons (public/icons/*.png) from the same drawing as public/icon.svg:
// three white bars on the theme colour. PNGs are encoded here with zlib (no image library), each
// pixel the average of 4 × 4 samples so the edges are smooth. Run: node scripts/make-icons.mjs
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';

const THEME = [0x1f, 0x4e, 0x79];
const WHITE = [0xff, 0xff, 0xff];
// The bars of icon.svg in its 32 × 32 box: [x0, y0, x1, y1].
const BARS = [
  [7, 12, 11, 22],
  [14, 8, 18, 22],
  [21, 16, 25, 22],
];

/**
 * Colour at a point of the 32 × 32 drawing. `maskable` fills the whole square (the platform cuts
 * its own shape) and shrinks the bars into the central safe zone, a circle of radius 0.4 × size.
 */
function colourAt(x, y, maskable) {
  if (!maskable) {
    // Rounded corners of radius 6: outside them is transparent.
    const r = 6;
    const cx = Math.min(Math.max(x, r), 32 - r);
    const cy = Math.min(Math.max(y, r), 32 - r);
    if ((x - cx) ** 2 + (y - cy) ** 2 > r * r) return null;
  }
  const scale = maskable ? 0.7 : 1;
  const u = 16 + (x - 16) / scale;
  const v = 16 + (y - 15) / scale;
  const inBar = BARS.some(([x0, y0, x1, y1]) => u >= x0 && u < x1 && v >= y0 && v < y1);
  return inBar ? WHITE : THEME;
}

function drawRgba(size, maskable) {
  const samples = 4;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = ((px + (sx + 0.5) / samples) / size) * 32;
          const y = ((py + (sy + 0.5) / samples) / size) * 32;
          const colour = colourAt(x, y, maskable);
          if (colour === null) continue;
          r += colour[0];
          g += colour[1];
          b += colour[2];
          a += 1;
        }
      }
      const offset = (py * size + px) * 4;
      if (a > 0) {
        pixels[offset] = Math.round(r / a);
        pixels[offset + 1] = Math.round(g / a);
        pixels[offset + 2] = Math.round(b / a);
      }
      pixels[offset + 3] = Math.round((255 * a) / (samples * samples));
    }
  }
  return pixels;
}

// CRC-32 of a PNG chunk (ISO 3309 polynomial 0xEDB88320, as the PNG specification gives it).
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const ICONS = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'icon-maskable-512.png', size: 512, maskable: true },
  // iOS ignores the manifest's icons and wants a 180 × 180 square without transparency.
  { file: 'apple-touch-icon-180.png', size: 180, maskable: true },
];

const outDir = new URL('../public/icons/', import.meta.url);
mkdirSync(outDir, { recursive: true });
for (const { file, size, maskable } of ICONS) {
  writeFileSync(new URL(file, outDir), encodePng(size, drawRgba(size, maskable)));
  console.log(`public/icons/${file}`);
}
