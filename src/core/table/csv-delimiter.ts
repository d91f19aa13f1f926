import Papa from 'papaparse';

/** Delimiters recognised, in order of preference when two explain the sample equally well. */
export const CANDIDATE_DELIMITERS: readonly string[] = [',', ';', '\t', '|'];

/** Detection looks at this many leading characters and at most this many records. */
const SAMPLE_CHARACTERS = 64 * 1024;
const SAMPLE_RECORDS = 50;

interface DelimiterScore {
  delimiter: string;
  headerFields: number;
  consistentShare: number;
}

function scoreDelimiter(sample: string, delimiter: string, sampleIsTruncated: boolean): DelimiterScore {
  const rows = Papa.parse<string[]>(sample, {
    delimiter,
    header: false,
    skipEmptyLines: true,
    preview: SAMPLE_RECORDS + 1,
  }).data;
  // A record cut by the end of the sample would look ragged; leave it out.
  if (sampleIsTruncated && rows.length > 1) rows.pop();
  const headerFields = rows.length > 0 ? rows[0]!.length : 0;
  let consistent = 0;
  for (const row of rows) if (row.length === headerFields) consistent++;
  return { delimiter, headerFields, consistentShare: rows.length > 0 ? consistent / rows.length : 0 };
}

/**
 * Guesses the delimiter of a CSV text among `,` `;` tab `|`: the one that splits the header into at
 * least two fields and gives the largest share of records with as many fields as the header; ties go
 * to more fields, then to the order above. A single-column file (no candidate splits the header) is
 * read with `,`. Reads at most the first 64 KiB. O(sample length × candidates).
 */
export function detectDelimiter(text: string): string {
  const sampleIsTruncated = text.length > SAMPLE_CHARACTERS;
  const sample = sampleIsTruncated ? text.slice(0, SAMPLE_CHARACTERS) : text;
  let best: DelimiterScore | undefined;
  for (const delimiter of CANDIDATE_DELIMITERS) {
    if (sample.indexOf(delimiter) === -1) continue;
    const score = scoreDelimiter(sample, delimiter, sampleIsTruncated);
    if (score.headerFields < 2) continue;
    const better =
      best === undefined ||
      score.consistentShare > best.consistentShare ||
      (score.consistentShare === best.consistentShare && score.headerFields > best.headerFields);
    if (better) best = score;
  }
  return best?.delimiter ?? ',';
}
