import type { Schema } from '../../table/types';
import type { ParamValues, PublicContext } from '../types';
import { clustmixProblems } from './plan';

/**
 * Why clustmix cannot run, each a sentence: a numeric column without bounds (or a categorical one
 * without categories), δ = 0, a label that is unknown or not categorical, approxShare + adaptShare ≥ 1,
 * d > 5,000 or K·d > 10⁶ (K known from the parameter, or from n and the budget when given).
 */
export function checkClustmix(schema: Schema, params: ParamValues, context?: PublicContext): string[] {
  return clustmixProblems(schema, params, context);
}
