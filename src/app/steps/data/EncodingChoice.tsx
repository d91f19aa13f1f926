import { useId } from 'react';
import {
  CSV_ENCODING_CHOICES,
  CSV_ENCODING_NAMES,
  encodingUsedSentence,
  type CsvEncodingChoice,
} from '../../../core/table/text-encoding';
import type { DatasetOverview } from '../../../worker/protocol';
import { useDataStore } from '../../state/data-store';
import { readAgainInEncoding } from '../../services/load-dataset';

/**
 * Which encoding the loaded file was read in, and a choice of the encodings the reader supports:
 * picking one reads the file again in a new data worker (never here), as a new load would, and the
 * dataset read before stays when the new reading fails. Demos (text bundled with the page) have no
 * choice.
 */
export function EncodingChoice({ encoding }: { encoding: NonNullable<DatasetOverview['encoding']> }) {
  const selectId = useId();
  const choosable = useDataStore((state) => state.encodingChoosable);
  const loading = useDataStore((state) => state.loadingFileName !== null);
  return (
    <p className="dataset-encoding">
      {choosable && (
        <>
          <label htmlFor={selectId}>Encoding</label>{' '}
          <select
            id={selectId}
            data-testid="encoding-choice"
            value={encoding.choice}
            disabled={loading}
            onChange={(event) => void readAgainInEncoding(event.target.value as CsvEncodingChoice)}
          >
            {CSV_ENCODING_CHOICES.map((choice) => (
              <option key={choice} value={choice}>
                {CSV_ENCODING_NAMES[choice]}
              </option>
            ))}
          </select>{' '}
        </>
      )}
      <span data-testid="encoding-used">{encodingUsedSentence(encoding.used, encoding.choice)}</span>
    </p>
  );
}
