export type { LinearRegressionFit } from './fit-linear-regression';
export { fitLinearRegression } from './fit-linear-regression';
export type { PivotedQr } from './householder-qr';
export {
  applyQTranspose,
  householderQrWithLimitedPivoting,
  invertUpperTriangularR,
  LM_QR_TOLERANCE,
} from './householder-qr';
