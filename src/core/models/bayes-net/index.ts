export {
  columnEntropyBits,
  pairEntropyBits,
  entropySensitivityBits,
  entropySensitivityUpperBound,
} from './entropy';
export {
  ENTROPY_GRID_STEPS,
  entropyCount,
  entropyNoiseScale,
  noisyEntropies,
  correlations,
  merit,
  greedyStructure,
  kahnOrder,
  type NoisyEntropies,
} from './structure';
export {
  tableShapes,
  tableCells,
  tableNoiseScale,
  noisyTableCounts,
  drawCumulativeTables,
  type TableShape,
} from './conditional-tables';
export { generateFrom, type BayesNet } from './generate';
