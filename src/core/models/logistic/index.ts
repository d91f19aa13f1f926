export {
  fitLogisticRegression,
  type LogisticRegressionFit,
  type LogisticRegressionOptions,
} from './fit-logistic-regression';
export {
  inverseOfCrossProduct,
  limitedPivotQr,
  solveLeastSquares,
  type LimitedPivotQr,
} from './limited-pivot-qr';
