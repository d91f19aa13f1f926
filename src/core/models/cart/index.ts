export type {
  CartCategoricalColumn,
  CartColumn,
  CartInput,
  CartNumericColumn,
  CartOptions,
  CartPredictColumns,
  CartTree,
} from './cart-types';
export { SYNTHPOP_CART_DEFAULTS } from './cart-types';
export { CartWorkspace } from './cart-workspace';
export {
  fitCart,
  nodeClass1Proportion,
  predictCart,
  predictInSample,
  rpartClassProbability,
  rpartClassWeights,
} from './fit-cart';
export { RpartTreeGrower, validateCartOptions, RPART_MAX_DEPTH } from './grow-rpart-tree';
