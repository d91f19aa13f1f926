// Writes the "Choosing a mechanism" section of README.md from each mechanism's fit:
//   npx tsx scripts/write-choosing-section.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { MECHANISM_CATALOGUE } from '../src/core/mechanisms/catalogue';
import { choosingSection, withChoosingSection } from './choosing-section';

const path = new URL('../README.md', import.meta.url);
const readme = readFileSync(path, 'utf8');
const updated = withChoosingSection(readme, choosingSection(MECHANISM_CATALOGUE));
if (updated === readme) {
  process.stdout.write('README.md: the "Choosing a mechanism" section is up to date.\n');
} else {
  writeFileSync(path, updated);
  process.stdout.write('README.md: the "Choosing a mechanism" section was rewritten.\n');
}
